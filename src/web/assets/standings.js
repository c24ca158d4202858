// The standings page: follows /events/standings and shows the rating tables, the GO!
// crosstable and the recent results.
//
// The stream sends one `standings` event right away and another each time a game ends;
// each carries everything (it is small), so the page is rebuilt from each one. Player
// names come from the clients and are hostile: every piece of text goes in through
// textContent, and no value from the server ever becomes a class name or an attribute
// other than a title or a datetime.
"use strict";

(function () {
  const FRONT_NAMES = { go: "GO!", spectrangle: "Spectrangle", bkgo: "Bkgo" };

  const body = document.body;
  const connection = document.getElementById("connection");

  /** The three standings tables, by front end. */
  const tables = {};
  for (const front of ["go", "spectrangle", "bkgo"]) {
    tables[front] = {
      rows: document.getElementById(`${front}-rows`),
      wrap: document.getElementById(`${front}-wrap`),
      empty: document.getElementById(`${front}-empty`),
      count: document.getElementById(`${front}-count`),
    };
  }
  const crosstable = {
    head: document.getElementById("crosstable-head"),
    rows: document.getElementById("crosstable-rows"),
    wrap: document.getElementById("crosstable-wrap"),
    empty: document.getElementById("crosstable-empty"),
    note: document.getElementById("crosstable-note"),
  };
  const results = {
    list: document.getElementById("results"),
    empty: document.getElementById("results-empty"),
    count: document.getElementById("results-count"),
  };

  /** Each player's rating in the previous event, per front end, to show what changed. */
  let previousRatings = null;

  // ---------------------------------------------------------------- helpers

  /** An HTML element with a class and, optionally, its text. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** Appends the non-null children to `parent`; returns `parent`. */
  function append(parent, ...children) {
    for (const child of children) if (child) parent.appendChild(child);
    return parent;
  }

  /** `n` and the noun, plural unless n is 1: "1 move", "3 moves". */
  function count(n, noun, plural) {
    return `${n} ${n === 1 ? noun : plural || noun + "s"}`;
  }

  const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

  /** A whole number, or a dash when there is none. */
  function whole(value) {
    return isNumber(value) ? String(Math.round(value)) : "–";
  }

  /** A number with `digits` decimals, or a dash. */
  function fixed(value, digits) {
    return isNumber(value) ? value.toFixed(digits) : "–";
  }

  /** A score as the console writes it: 12, 36.5. */
  function points(value) {
    return isNumber(value) ? String(Math.round(value * 10) / 10) : "";
  }

  /** A name as text; a missing one reads "?". */
  function nameOf(value) {
    return value === undefined || value === null ? "?" : String(value);
  }

  const list = (value) => (Array.isArray(value) ? value : []);

  /** An element that only screen readers see. */
  const hiddenText = (text) => el("span", "sr-only", text);

  // ---------------------------------------------------------------- connection state

  /** Shows whether the event stream is up: on <body> for tests, in words for people. */
  function setConnection(state) {
    if (body.dataset.connection === state) return;
    body.dataset.connection = state;
    connection.textContent =
      state === "live" ? "Live" :
      state === "lost" ? "Connection lost: reconnecting…" : "Connecting…";
  }

  // ---------------------------------------------------------------- standings tables

  /** The rank as a badge; the first three get a medal colour. */
  function rankCell(row) {
    const cell = el("td", "col-rank");
    const rank = isNumber(row.rank) ? Math.round(row.rank) : null;
    const medal = rank !== null && rank >= 1 && rank <= 3 ? ` rank-${rank}` : "";
    cell.appendChild(el("span", "rank" + medal, rank === null ? "–" : rank));
    return cell;
  }

  /** The player's name as the row's header. */
  function nameCell(row) {
    const cell = el("th", "col-name");
    cell.scope = "row";
    cell.appendChild(el("span", "name", nameOf(row.name)));
    return cell;
  }

  /** "1662 ± 290", and how much it moved in the last game, if it did. */
  function ratingCell(row, before) {
    const cell = el("td", "col-rating");
    const line = el("span", "rating");
    append(line,
      el("span", "rating-value", whole(row.rating)),
      isNumber(row.deviation) ? el("span", "rating-dev", ` ± ${whole(row.deviation)}`) : null);
    cell.appendChild(line);
    if (isNumber(before) && isNumber(row.rating)) {
      const delta = Math.round(row.rating) - Math.round(before);
      if (delta !== 0) {
        const badge = el("span", `delta ${delta > 0 ? "up" : "down"}`, delta > 0 ? `+${delta}` : `−${-delta}`);
        badge.title = `${delta > 0 ? "up" : "down"} ${Math.abs(delta)} after the last game`;
        cell.appendChild(badge);
      }
    }
    return cell;
  }

  const numCell = (text) => el("td", "col-num", text);

  /** One row of a GO! or Bkgo table. */
  function duelRow(row, before) {
    const tr = el("tr");
    append(tr,
      rankCell(row),
      nameCell(row),
      ratingCell(row, before),
      numCell(whole(row.games)),
      numCell(whole(row.wins)),
      numCell(whole(row.losses)),
      numCell(whole(row.draws)),
      el("td", "col-last", row.last ? String(row.last) : "–"));
    return tr;
  }

  /** One row of the Spectrangle table. */
  function tableRow(row, before) {
    const tr = el("tr");
    append(tr,
      rankCell(row),
      nameCell(row),
      ratingCell(row, before),
      numCell(whole(row.games)),
      numCell(whole(row.firsts)),
      numCell(fixed(row.mean_place, 2)),
      numCell(fixed(row.mean_score, 1)));
    return tr;
  }

  /** Fills one standings table, or says it has nobody yet. */
  function renderTable(front, rows, ratingsNow) {
    const table = tables[front];
    const before = previousRatings ? previousRatings[front] : null;
    const now = new Map();
    const made = [];
    for (const row of rows) {
      if (!row || typeof row !== "object") continue;
      const name = nameOf(row.name);
      now.set(name, row.rating);
      const old = before ? before.get(name) : undefined;
      const tr = front === "spectrangle" ? tableRow(row, old) : duelRow(row, old);
      if (before && isNumber(row.rating) && old !== row.rating) tr.classList.add("changed");
      made.push(tr);
    }
    ratingsNow[front] = now;
    table.rows.replaceChildren(...made);
    table.count.textContent = String(made.length);
    table.wrap.hidden = made.length === 0;
    table.empty.hidden = made.length > 0;
    table.empty.textContent = "No rated games yet.";
  }

  // ---------------------------------------------------------------- crosstable

  /** The players as rows and columns; each cell the row player's wins–losses. */
  function renderCrosstable(data) {
    const players = list(data && data.players).map(nameOf);
    const cells = list(data && data.cells);
    const n = players.length;
    crosstable.wrap.hidden = n === 0;
    crosstable.note.hidden = n === 0;
    crosstable.empty.hidden = n > 0;
    crosstable.empty.textContent = "No rated GO! games yet.";
    if (n === 0) {
      crosstable.head.replaceChildren();
      crosstable.rows.replaceChildren();
      return;
    }

    // Columns are numbered after the rows, as crosstables do, so that long names do not
    // make the grid wide; screen readers hear the full name as the column's header.
    const headRow = el("tr");
    const corner = el("th", "xt-corner");
    corner.scope = "col";
    corner.appendChild(hiddenText("Player"));
    headRow.appendChild(corner);
    players.forEach((name, j) => {
      const th = el("th", "xt-col");
      th.scope = "col";
      th.title = name;
      const number = el("span", "xt-num", j + 1);
      number.setAttribute("aria-hidden", "true");
      append(th, number, hiddenText(name));
      headRow.appendChild(th);
    });
    crosstable.head.replaceChildren(headRow);

    const rows = players.map((name, i) => {
      const tr = el("tr");
      const th = el("th", "xt-player");
      th.scope = "row";
      const number = el("span", "xt-num", i + 1);
      number.setAttribute("aria-hidden", "true");
      th.appendChild(append(el("span", "xt-who"), number, el("span", "name", name)));
      tr.appendChild(th);
      const line = list(cells[i]);
      for (let j = 0; j < n; j++) {
        if (i === j) {
          const self = el("td", "xt-cell xt-self");
          const dash = el("span", null, "—");
          dash.setAttribute("aria-hidden", "true");
          append(self, dash, hiddenText("same player"));
          tr.appendChild(self);
          continue;
        }
        const cell = line[j] && typeof line[j] === "object" ? line[j] : {};
        const wins = isNumber(cell.wins) ? Math.round(cell.wins) : 0;
        const losses = isNumber(cell.losses) ? Math.round(cell.losses) : 0;
        const kind =
          wins + losses === 0 ? "xt-none" :
          wins > losses ? "xt-ahead" :
          wins < losses ? "xt-behind" : "xt-even";
        const td = el("td", `xt-cell ${kind}`, `${wins}–${losses}`);
        td.title = `${name} vs ${players[j]}: ${count(wins, "win")}, ${count(losses, "loss", "losses")}`;
        tr.appendChild(td);
      }
      return tr;
    });
    crosstable.rows.replaceChildren(...rows);
  }

  // ---------------------------------------------------------------- recent results

  const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  const dayTimeFormat = new Intl.DateTimeFormat(undefined, {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
  const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "medium" });

  function parseTime(text) {
    if (typeof text !== "string") return null;
    const time = new Date(text);
    return Number.isNaN(time.getTime()) ? null : time;
  }

  /** When the game ended, in the viewer's time: the clock today, with the day before. */
  function endTime(result) {
    const ended = parseTime(result.ended);
    if (!ended) return null;
    const node = el("time", "result-time");
    node.dateTime = ended.toISOString();
    const today = new Date();
    const sameDay = ended.toDateString() === today.toDateString();
    node.textContent = (sameDay ? timeFormat : dayTimeFormat).format(ended);
    node.title = `ended ${fullFormat.format(ended)}`;
    return node;
  }

  /** How long the game took: "20 min", "1 h 5 min". */
  function duration(result) {
    const started = parseTime(result.started);
    const ended = parseTime(result.ended);
    if (!started || !ended || ended < started) return null;
    const minutes = Math.round((ended - started) / 60000);
    if (minutes < 1) return "under a minute";
    if (minutes < 60) return `${minutes} min`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  /** The players in the order to show them: Go black first, Spectrangle by place. */
  function orderedPlayers(result, front) {
    const players = list(result.players).filter((p) => p && typeof p === "object");
    const bySeat = (a, b) => (isNumber(a.colour) ? a.colour : 99) - (isNumber(b.colour) ? b.colour : 99);
    if (front !== "spectrangle") return players.slice().sort(bySeat);
    const places = list(result.places).map(nameOf);
    const placeOf = (p) => {
      const i = places.indexOf(nameOf(p.name));
      return i < 0 ? 99 : i;
    };
    return players.slice().sort((a, b) => placeOf(a) - placeOf(b) || bySeat(a, b));
  }

  function resultPlayer(player, front, winner) {
    const isWinner = winner !== null && nameOf(player.name) === winner;
    const item = el("li", "card-player result-player" + (isWinner ? " winner" : ""));
    let marker;
    if (front === "spectrangle") {
      marker = el("span", "seat", isNumber(player.colour) ? player.colour : "–");
    } else {
      const colour = player.colour === 1 ? "black" : player.colour === 2 ? "white" : "unknown";
      marker = el("span", `stone-icon ${colour}`);
    }
    marker.setAttribute("aria-hidden", "true");
    append(item,
      marker,
      el("span", "name", nameOf(player.name)),
      isWinner ? el("span", "tag tag-winner", "winner") : null);
    const score = points(player.score);
    if (score !== "") {
      const node = el("span", "result-score", score);
      node.title = "score";
      item.appendChild(node);
    }
    return item;
  }

  /** One finished game as a card. */
  function resultCard(result) {
    const front = Object.prototype.hasOwnProperty.call(FRONT_NAMES, result.front) ? result.front : null;
    const rated = result.rated !== false;
    const card = el("li", `result-card ${front ? `front-${front}` : "front-unknown"}${rated ? "" : " unrated"}`);

    const head = el("div", "card-head");
    const number = isNumber(result.game) || /^\d+$/.test(String(result.game)) ? String(result.game) : null;
    const id = number === null ? null : front === "spectrangle" ? `s${number}` : `#${number}`;
    append(head,
      el("span", "front", front ? FRONT_NAMES[front] : nameOf(result.front)),
      id ? el("span", "game-id", id) : null,
      rated ? null : el("span", "tag tag-unrated", "not rated"),
      endTime(result));

    const players = el("ul", "card-players");
    const winner = result.winner === undefined || result.winner === null ? null : String(result.winner);
    for (const player of orderedPlayers(result, front)) players.appendChild(resultPlayer(player, front, winner));

    const outcome = el("p", "card-result result-line");
    append(outcome,
      el("span", "result-outcome", winner === null ? "Draw" : `${winner} won`),
      result.ending ? el("span", "ending", String(result.ending)) : null);

    const meta = [];
    if (isNumber(result.size)) meta.push(`${result.size}×${result.size}`);
    if (isNumber(result.moves)) meta.push(count(result.moves, "move"));
    const took = duration(result);
    if (took) meta.push(took);

    append(card, head, players, outcome, meta.length ? el("p", "card-meta", meta.join(" · ")) : null);
    return card;
  }

  function renderResults(items) {
    const cards = items.filter((r) => r && typeof r === "object").map(resultCard);
    results.list.replaceChildren(...cards);
    results.count.textContent = String(cards.length);
    results.list.hidden = cards.length === 0;
    results.empty.hidden = cards.length > 0;
    results.empty.textContent = "No game has ended yet.";
  }

  // ---------------------------------------------------------------- one event

  function onStandings(data) {
    const standings = data && typeof data.standings === "object" && data.standings ? data.standings : {};
    const ratingsNow = {};
    // Each part on its own: one odd part must not blank the others.
    for (const front of Object.keys(tables)) {
      try {
        renderTable(front, list(standings[front]), ratingsNow);
      } catch (err) {
        console.error(`could not show the ${front} standings`, err);
      }
    }
    try {
      renderCrosstable(data ? data.crosstable : null);
    } catch (err) {
      console.error("could not show the crosstable", err);
    }
    try {
      renderResults(list(data ? data.results : null));
    } catch (err) {
      console.error("could not show the results", err);
    }
    previousRatings = ratingsNow;
  }

  // ---------------------------------------------------------------- the stream

  /**
   * Follows /events/standings. EventSource reconnects by itself after a network error;
   * only when the browser gives up for good (an HTTP error, readyState CLOSED) do we open
   * a new one, later and later, so a projector left alone recovers on its own.
   */
  function follow() {
    let delay = 2000;
    function open() {
      const source = new EventSource("/events/standings");
      source.addEventListener("open", () => {
        delay = 2000;
        setConnection("live");
      });
      source.addEventListener("standings", (event) => {
        setConnection("live");
        let data;
        try {
          data = JSON.parse(event.data);
        } catch (err) {
          console.error("bad event data", err);
          return;
        }
        onStandings(data);
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
