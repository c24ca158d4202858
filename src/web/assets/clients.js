// The report cards' page: follows /events/clients and shows one row per card.
//
// The stream sends one `clients` event right away and another whenever a card changes
// (looked at once a second); each carries every row, so the table is rebuilt from it,
// in the order the viewer chose by clicking a column (the worst first until then).
// Names come from the clients and are hostile: text goes in through textContent only,
// and a name becomes nothing but the encoded path of its card's link.
"use strict";

(function () {
  const FRONT_NAMES = { go: "GO!", spectrangle: "Spectrangle", bkgo: "Bkgo" };

  const body = document.body;
  const connection = document.getElementById("connection");
  const rowsNode = document.getElementById("clients-rows");
  const wrap = document.getElementById("clients-wrap");
  const empty = document.getElementById("clients-empty");
  const countNode = document.getElementById("clients-count");
  const headers = Array.from(document.querySelectorAll("#clients-head th[data-key]"));

  /** The rows of the last event, in the server's order (the worst first). */
  let latest = [];
  /** The column sorted by, and its direction; null: the server's order. */
  let sorting = null;

  /** An HTML element with a class and, optionally, its text. */
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
      state === "lost" ? "Connection lost: reconnecting…" : "Connecting…";
  }

  /** A time in milliseconds as the table shows it, "-" when there is none. */
  function ms(value) {
    return typeof value === "number" ? `${value} ms` : "-";
  }

  /** The kind made most often, and how often: ["not-your-turn", 20], or null. */
  function topMistake(row) {
    let best = null;
    for (const [kind, n] of Object.entries(row.mistakes || {})) {
      if (!best || n > best[1]) best = [kind, n];
    }
    return best;
  }

  /** The value a column sorts by. */
  function sortValue(row, key) {
    const times = row.move_times || {};
    switch (key) {
      case "front": return row.front || "";
      case "name": return (row.name || "").toLowerCase();
      case "top": { const top = topMistake(row); return top ? top[1] : 0; }
      case "p50": return typeof times.p50_ms === "number" ? times.p50_ms : -1;
      case "p99": return typeof times.p99_ms === "number" ? times.p99_ms : -1;
      default: return typeof row[key] === "number" ? row[key] : 0;
    }
  }

  function sorted(rows) {
    if (!sorting) return rows;
    const { key, descending } = sorting;
    return rows
      .map((row, index) => ({ row, index }))
      .sort((a, b) => {
        const x = sortValue(a.row, key);
        const y = sortValue(b.row, key);
        const order = x < y ? -1 : x > y ? 1 : 0;
        // Ties keep the server's order (the worst first).
        return (descending ? -order : order) || a.index - b.index;
      })
      .map((item) => item.row);
  }

  function cardLink(row) {
    const link = el("a", "card-link", row.name);
    link.href = `/client/${encodeURIComponent(row.front)}/${encodeURIComponent(row.name)}`;
    return link;
  }

  function render() {
    countNode.textContent = String(latest.length);
    empty.hidden = latest.length > 0;
    wrap.hidden = latest.length === 0;
    if (latest.length === 0) {
      empty.textContent = "No client has named itself yet: a card opens with its first HANDSHAKE, JOIN or Player:.";
    }
    const rows = sorted(latest).map((row) => {
      const tr = el("tr", row.mistakes_total > 0 || row.late_moves > 0 || row.games_left > 0 ? "flagged" : "");
      tr.dataset.card = `${row.front}/${row.name}`;
      const times = row.move_times || {};
      const top = topMistake(row);
      const nameCell = el("th", "col-name");
      nameCell.scope = "row";
      nameCell.appendChild(cardLink(row));
      const cells = [
        el("td", "col-front", FRONT_NAMES[row.front] || row.front),
        nameCell,
        el("td", "col-num", row.connections),
        el("td", "col-num", row.games),
        el("td", "col-num", `${row.wins}-${row.losses}-${row.draws}`),
        el("td", "col-num", row.moves),
        el("td", "col-num col-mistakes", row.mistakes_total),
        el("td", "col-top", top ? `${top[0]} ${top[1]}` : "-"),
        el("td", "col-num", row.longest_repeat),
        el("td", "col-num", row.late_moves),
        el("td", "col-num", row.games_left),
        el("td", "col-num", ms(times.p50_ms)),
        el("td", "col-num", ms(times.p99_ms)),
      ];
      for (const cell of cells) tr.appendChild(cell);
      return tr;
    });
    rowsNode.replaceChildren(...rows);
    for (const th of headers) {
      if (sorting && th.dataset.key === sorting.key) {
        th.setAttribute("aria-sort", sorting.descending ? "descending" : "ascending");
      } else if (!sorting && th.dataset.key === "mistakes_total") {
        th.setAttribute("aria-sort", "descending");
      } else {
        th.removeAttribute("aria-sort");
      }
    }
  }

  // A click on a column sorts by it: names and front ends A to Z first, counts and
  // times largest first; a second click turns the order round.
  for (const th of headers) {
    const button = th.querySelector("button");
    if (!button) continue;
    button.addEventListener("click", () => {
      const key = th.dataset.key;
      const textual = key === "name" || key === "front";
      sorting = sorting && sorting.key === key
        ? { key, descending: !sorting.descending }
        : { key, descending: !textual };
      render();
    });
  }

  function follow() {
    let delay = 2000;
    function open() {
      const source = new EventSource("/events/clients");
      source.addEventListener("open", () => {
        delay = 2000;
        setConnection("live");
      });
      source.addEventListener("clients", (event) => {
        setConnection("live");
        try {
          const data = JSON.parse(event.data);
          latest = Array.isArray(data.clients) ? data.clients : [];
        } catch (err) {
          console.error("bad event data", err);
          return;
        }
        render();
      });
      source.addEventListener("error", () => {
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
