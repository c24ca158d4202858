// One client's report card: follows /events/client/<front>/<name> (the same path as
// the page's, under /events) and shows the whole card: its counts, its move times, and
// each kind of mistake with the first lines that made it and what the server answered.
//
// Lines and names come from the clients and are hostile: text goes in through
// textContent only.
"use strict";

(function () {
  const FRONT_NAMES = { go: "GO!", spectrangle: "Spectrangle", bkgo: "Bkgo" };

  const body = document.body;
  const connection = document.getElementById("connection");
  const summary = document.getElementById("summary");
  const mistakes = document.getElementById("mistakes");
  const mistakesEmpty = document.getElementById("mistakes-empty");
  const mistakesCount = document.getElementById("mistakes-count");

  // "/client/go/Thiery%20Baudet" -> "/events/client/go/Thiery%20Baudet".
  const streamPath = `/events${location.pathname}`;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setConnection(state) {
    if (body.dataset.connection === state) return;
    body.dataset.connection = state;
    connection.textContent =
      state === "live" ? "Live" :
      state === "lost" ? "Connection lost: reconnecting…" :
      state === "gone" ? "This card was forgotten (the server keeps the most recent ones)" : "Connecting…";
  }

  function ms(value) {
    return typeof value === "number" ? `${value} ms` : "-";
  }

  // A fact of the summary: its value is text, or a <dd> made by the caller. A "wide"
  // fact (a client's line, two dates) takes a row of its own, so that no value runs
  // into the next column.
  function fact(term, value, className) {
    const row = el("div", className ? `fact ${className}` : "fact");
    row.appendChild(el("dt", "", term));
    row.appendChild(value instanceof Node ? value : el("dd", "", value));
    summary.appendChild(row);
  }

  function when(text) {
    const time = el("time", "", text ? new Date(text).toLocaleString() : "");
    if (text) time.dateTime = text;
    return time;
  }

  function render(card) {
    summary.replaceChildren();
    fact("Front end", FRONT_NAMES[card.front] || card.front);
    fact("Connections", card.connections);
    fact("Games", `${card.games} (${card.wins} won, ${card.losses} lost, ${card.draws} drawn)`);
    fact("Moves", card.moves);
    const times = card.move_times || {};
    fact("Time to move once told", `p50 ${ms(times.p50_ms)}, p99 ${ms(times.p99_ms)}, max ${ms(times.max_ms)} (${times.count || 0} timed)`);
    fact("Moves not made in time", card.late_moves);
    fact("Games left mid-play", card.games_left);
    const run = el("dd", "", card.longest_repeat);
    if (card.repeated_line) {
      run.appendChild(document.createTextNode(" × "));
      run.appendChild(el("code", "line", card.repeated_line));
    }
    fact("Longest run of one refused line", run, "wide");
    const seen = el("dd", "");
    seen.appendChild(when(card.first_seen));
    seen.appendChild(document.createTextNode(" – "));
    seen.appendChild(when(card.last_seen));
    fact("Seen", seen, "wide");

    const kinds = Array.isArray(card.mistakes) ? card.mistakes : [];
    const examples = Array.isArray(card.examples) ? card.examples : [];
    mistakesCount.textContent = String(card.mistakes_total || 0);
    mistakesEmpty.hidden = kinds.length > 0;
    mistakesEmpty.textContent = "No mistakes: every line this client sent was accepted.";
    const blocks = kinds.map((kind) => {
      const block = el("section", "mistake");
      block.dataset.kind = kind.kind;
      const head = el("h3", "mistake-head");
      head.appendChild(el("code", "mistake-kind", kind.kind));
      head.appendChild(el("span", "count", kind.count));
      block.appendChild(head);
      const list = el("ol", "examples");
      for (const example of examples.filter((e) => e.kind === kind.kind)) {
        const item = el("li", "example");
        item.appendChild(when(example.at));
        item.appendChild(el("pre", "sent", example.line));
        if (example.answer) item.appendChild(el("pre", "answer", example.answer));
        list.appendChild(item);
      }
      block.appendChild(list);
      return block;
    });
    mistakes.replaceChildren(...blocks);
  }

  function follow() {
    let delay = 2000;
    function open() {
      const source = new EventSource(streamPath);
      source.addEventListener("open", () => {
        delay = 2000;
        setConnection("live");
      });
      source.addEventListener("card", (event) => {
        setConnection("live");
        try {
          render(JSON.parse(event.data));
        } catch (err) {
          console.error("bad event data", err);
        }
      });
      source.addEventListener("gone", () => {
        source.close();
        setConnection("gone");
      });
      source.addEventListener("error", () => {
        if (body.dataset.connection === "gone") return;
        setConnection("lost");
        if (source.readyState === EventSource.CLOSED) {
          setTimeout(open, delay);
          delay = Math.min(delay * 2, 30000);
        }
      });
    }
    open();
  }

  follow();
})();
