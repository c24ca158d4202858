// The game page: follows /events/<front>/<id> and draws the game as it is played.
//
// Go (GO! and Bkgo) is drawn as an SVG board with one <circle class="stone"> per stone;
// Spectrangle as 36 triangular fields, each a <g data-field>. The side panel is rebuilt
// from each state. Every piece of text goes in through textContent: player names come
// from the clients and are hostile until proven otherwise.
"use strict";

(function () {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const FRONT_NAMES = { go: "GO!", spectrangle: "Spectrangle", bkgo: "Bkgo" };
  // Go column letters skip I, as the console and SGF viewers write them.
  const COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  const STATUS_WORDS = { waiting: "Waiting", playing: "Playing", finished: "Finished" };

  const body = document.body;
  const svg = document.getElementById("board");
  const boardArea = document.getElementById("board-area");
  const boardNote = document.getElementById("board-note");
  const panel = document.getElementById("panel");
  const connection = document.getElementById("connection");
  const heading = document.getElementById("title");

  // ---------------------------------------------------------------- small DOM helpers

  /** An HTML element with a class and, optionally, its text. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** An SVG element with its attributes. */
  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      node.setAttribute(name, String(value));
    }
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

  /** A score as the console writes it: 12, 7.5. */
  function points(value) {
    return typeof value === "number" ? String(Math.round(value * 10) / 10) : "?";
  }

  // ---------------------------------------------------------------- which game

  const match = /^\/game\/(go|spectrangle|bkgo)\/(\d+)\/?$/.exec(location.pathname);
  const front = match ? match[1] : null;
  const gameId = match ? match[2] : null;
  if (front) body.dataset.front = front;

  // The server fills in the title ("GO! game 3: Ann vs Bob", "Spectrangle game s2: A,
  // B, C", "Bkgo room: waiting for players"). Players come and go while the page is
  // open, so the title is rebuilt from each state the same way (web/mod.rs `title`),
  // keeping the server's first part.
  const titlePrefix = (function () {
    const text = document.title;
    const colon = text.indexOf(": ");
    if (!text.includes("{{") && colon > 0) return text.slice(0, colon);
    if (front === "bkgo") return "Bkgo room";
    if (front === "spectrangle") return `Spectrangle game s${gameId}`;
    return `GO! game ${gameId || "?"}`;
  })();

  function refreshTitle(state) {
    const names = (Array.isArray(state.players) ? state.players : []).map((p) => String(p.name));
    const players =
      names.length === 0 ? "waiting for players" :
      front !== "spectrangle" && names.length === 2 ? `${names[0]} vs ${names[1]}` :
      names.join(", ");
    const text = `${titlePrefix}: ${players}`;
    if (document.title !== text) document.title = text;
    if (heading.textContent !== text) heading.textContent = text;
  }

  // ---------------------------------------------------------------- connection state

  /** Shows whether the event stream is up: on <body> for tests, in words for people. */
  function setConnection(state) {
    if (body.dataset.connection === state) return;
    body.dataset.connection = state;
    connection.textContent =
      state === "live" ? "Live" :
      state === "lost" ? "Connection lost: reconnecting…" : "Connecting…";
  }

  /**
   * Follows an event stream. EventSource reconnects by itself after a network error;
   * only when the browser gives up for good (an HTTP error, readyState CLOSED) do we
   * open a new one, later and later, so a projector left alone recovers on its own.
   */
  function follow(url, handlers) {
    let delay = 2000;
    function open() {
      const source = new EventSource(url);
      source.addEventListener("open", () => {
        delay = 2000;
        setConnection("live");
      });
      for (const [name, handle] of Object.entries(handlers)) {
        source.addEventListener(name, (event) => {
          setConnection("live");
          let data;
          try {
            data = JSON.parse(event.data);
          } catch (err) {
            console.error("bad event data", err);
            return;
          }
          try {
            handle(data);
          } catch (err) {
            // One odd state must not stop the page from following the next ones.
            console.error("could not show the state", err);
          }
        });
      }
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

  // ---------------------------------------------------------------- Go board

  const CELL = 100; // distance between two lines, in viewBox units
  const MARGIN = 125; // from the outer edge to the first line: room for coordinates
  const go = { size: 0, stones: new Map(), layer: null, marker: null };

  /** The point's coordinate as Go players read it: column letter, row from the bottom. */
  function coordinate(index, size) {
    const row = Math.floor(index / size);
    const col = index % size;
    return `${COLUMN_LETTERS[col] || "?"}${size - row}`;
  }

  /** Star points (hoshi) for the usual sizes, as [row, col]. */
  function starPoints(size) {
    const lines = { 9: [2, 4, 6], 13: [3, 6, 9], 19: [3, 9, 15] }[size];
    if (!lines) return [];
    const stars = [];
    for (const r of lines) for (const c of lines) stars.push([r, c]);
    // The 9x9 board has the four corners and the centre only.
    return size === 9 ? stars.filter(([r, c]) => (r === 4) === (c === 4)) : stars;
  }

  const pos = (i) => MARGIN + i * CELL;

  /** Draws an empty size x size board: wood, lines, star points, coordinates. */
  function buildGoBoard(size) {
    svg.replaceChildren();
    go.size = size;
    go.stones = new Map();
    const extent = 2 * MARGIN + (size - 1) * CELL;
    svg.setAttribute("viewBox", `0 0 ${extent} ${extent}`);
    svg.setAttribute("class", "go-board");

    const defs = svgEl("defs");
    defs.appendChild(gradient("stone-black", [["0", "#75787f"], ["0.35", "#2a2c31"], ["1", "#060607"]]));
    defs.appendChild(gradient("stone-white", [["0", "#ffffff"], ["0.65", "#eeece6"], ["1", "#bdb9ae"]]));
    svg.appendChild(defs);

    svg.appendChild(svgEl("rect", { class: "wood", x: 0, y: 0, width: extent, height: extent, rx: 18 }));

    // All lines as one path: cheap to draw, crisp at any size.
    const far = pos(size - 1);
    let d = "";
    for (let i = 0; i < size; i++) {
      d += `M${pos(0)} ${pos(i)}H${far}M${pos(i)} ${pos(0)}V${far}`;
    }
    svg.appendChild(svgEl("path", { class: "grid", d }));
    svg.appendChild(svgEl("rect", {
      class: "grid-edge", x: pos(0), y: pos(0), width: far - pos(0), height: far - pos(0),
    }));
    for (const [r, c] of starPoints(size)) {
      svg.appendChild(svgEl("circle", { class: "star", cx: pos(c), cy: pos(r), r: size >= 19 ? 13 : 11 }));
    }

    // Bigger letters on a big board, where each unit is fewer pixels.
    const labels = svgEl("g", { class: "coords", "aria-hidden": "true", "font-size": size >= 15 ? 46 : 40 });
    const near = MARGIN * 0.36;
    const away = extent - near;
    for (let i = 0; i < size; i++) {
      const letter = COLUMN_LETTERS[i] || "?";
      const number = String(size - i); // row 0 of the board string is the top row
      labels.appendChild(label(letter, pos(i), near));
      labels.appendChild(label(letter, pos(i), away));
      labels.appendChild(label(number, near, pos(i)));
      labels.appendChild(label(number, away, pos(i)));
    }
    svg.appendChild(labels);

    go.layer = svgEl("g", { class: "stones" });
    svg.appendChild(go.layer);
    go.marker = svgEl("circle", { class: "last-marker", r: 20, visibility: "hidden" });
    svg.appendChild(go.marker);
  }

  function gradient(id, stops) {
    const g = svgEl("radialGradient", { id, cx: "0.37", cy: "0.32", r: "0.72" });
    for (const [offset, colour] of stops) {
      g.appendChild(svgEl("stop", { offset, "stop-color": colour }));
    }
    return g;
  }

  function label(text, x, y) {
    const t = svgEl("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central" });
    t.textContent = text;
    return t;
  }

  /**
   * Brings the stones in line with `board`: adds new ones, removes captured ones,
   * leaves the rest alone (so only new stones fade in), then marks the last move.
   */
  function updateStones(board, lastMove) {
    const size = go.size;
    for (let index = 0; index < size * size; index++) {
      const colour = board[index];
      const stone = go.stones.get(index);
      const wanted = colour === "1" || colour === "2";
      if (stone && (!wanted || stone.getAttribute("data-colour") !== colour)) {
        stone.remove();
        go.stones.delete(index);
      }
      if (wanted && !go.stones.has(index)) {
        const circle = svgEl("circle", {
          class: "stone " + (colour === "1" ? "black" : "white"),
          "data-point": index,
          "data-colour": colour,
          cx: pos(index % size),
          cy: pos(Math.floor(index / size)),
          r: CELL * 0.475,
          fill: colour === "1" ? "url(#stone-black)" : "url(#stone-white)",
        });
        go.layer.appendChild(circle);
        go.stones.set(index, circle);
      }
    }
    for (const old of go.layer.querySelectorAll(".stone.last")) old.classList.remove("last");
    const last = typeof lastMove === "number" && lastMove >= 0 ? go.stones.get(lastMove) : null;
    if (last) {
      last.classList.add("last");
      go.marker.setAttribute("cx", last.getAttribute("cx"));
      go.marker.setAttribute("cy", last.getAttribute("cy"));
      go.marker.setAttribute("class", "last-marker on-" + (last.getAttribute("data-colour") === "1" ? "black" : "white"));
      go.marker.setAttribute("visibility", "visible");
    } else {
      go.marker.setAttribute("visibility", "hidden");
    }
  }

  /** The position in words, for screen readers: which stones stand where. */
  function describeGo(state, board, size) {
    const black = [];
    const white = [];
    for (let i = 0; i < board.length; i++) {
      if (board[i] === "1") black.push(coordinate(i, size));
      else if (board[i] === "2") white.push(coordinate(i, size));
    }
    const parts = [`${size} by ${size} Go board`];
    parts.push(black.length ? `black stones on ${black.join(", ")}` : "no black stones");
    parts.push(white.length ? `white stones on ${white.join(", ")}` : "no white stones");
    parts.push(`last move: ${lastMoveText(state.last_move, board, size)}`);
    return parts.join("; ") + ".";
  }

  function lastMoveText(lastMove, board, size) {
    if (lastMove === null || lastMove === undefined) return "none yet";
    if (lastMove < 0) return "pass";
    const colour = board[lastMove] === "1" ? "black" : board[lastMove] === "2" ? "white" : "";
    return `${coordinate(lastMove, size)}${colour ? " (" + colour + ")" : ""}`;
  }

  function showNote(text) {
    boardNote.textContent = text;
    boardNote.hidden = !text;
    boardArea.classList.toggle("has-note", Boolean(text));
  }

  function renderGoBoard(state) {
    const board = typeof state.board === "string" ? state.board : null;
    const size = board ? Math.round(Math.sqrt(board.length)) : 0;
    if (!board || size < 1 || size * size !== board.length) {
      // A GO! game waiting for its configuration has no board yet.
      svg.replaceChildren();
      svg.setAttribute("class", "go-board is-empty");
      go.size = 0;
      svg.setAttribute("aria-label", "No board yet: waiting for the configuration.");
      showNote("Waiting for the configuration…");
      return;
    }
    showNote("");
    if (size !== go.size) buildGoBoard(size);
    updateStones(board, state.last_move);
    svg.setAttribute("aria-label", describeGo(state, board, size));
  }

  // ---------------------------------------------------------------- Spectrangle board

  const SIDE = 100; // a field's side, in viewBox units
  const HEIGHT = (SIDE * Math.sqrt(3)) / 2;
  const ROWS = 6;
  const EDGE_COLOURS = {
    R: "#e03131", G: "#2f9e44", B: "#1c6fd1", Y: "#fcc419", P: "#9c36b5", W: "#ffffff",
  };
  const COLOUR_NAMES = { R: "red", G: "green", B: "blue", Y: "yellow", P: "purple", W: "white" };
  // The tile set with values, letters as dealt (engine: tile.rs `SET`).
  const TILE_VALUES = {
    RRR: 6, BBB: 6, GGG: 6, YYY: 6, PPP: 6,
    RRY: 5, RRP: 5, BBR: 5, BBP: 5, GGR: 5, GGB: 5, YYG: 5, YYB: 5, PPY: 5, PPG: 5,
    RRB: 4, RRG: 4, BBG: 4, BBY: 4, GGY: 4, GGP: 4, YYR: 4, YYP: 4, PPR: 4, PPB: 4,
    YBP: 3, RGY: 3, BGP: 3, GRB: 3, BRP: 2, YPR: 2, YPG: 2, GRP: 1, BYG: 1, RYB: 1, WWW: 1,
  };

  /**
   * Where field `index` lies, as the engine's `Location` sees it: row r, position p in
   * the row, column c = p - r (fields with the same c are stacked), pointing up when p
   * is even. `corners` are listed so that edge e runs from corners[e] to
   * corners[(e + 1) % 3] in the engine's edge order (`Location::sides`): up fields
   * bottom, right, left; down fields top, left, right.
   */
  function fieldGeometry(index) {
    let row = 0;
    while ((row + 1) * (row + 1) <= index) row++;
    const inRow = index - row * row;
    const cx = (inRow - row) * (SIDE / 2);
    const top = row * HEIGHT;
    const bottom = top + HEIGHT;
    const up = inRow % 2 === 0;
    const corners = up
      ? [[cx - SIDE / 2, bottom], [cx + SIDE / 2, bottom], [cx, top]] // bottom, right, left
      : [[cx + SIDE / 2, top], [cx - SIDE / 2, top], [cx, bottom]]; // top, left, right
    const centre = [cx, up ? top + (2 * HEIGHT) / 3 : top + HEIGHT / 3];
    return { index, row, up, corners, centre };
  }

  /**
   * The colour letter on each edge (by edge number) of a tile spelled like "RYB2":
   * letters as dealt plus the rotation k; edge i carries letter (i - k) mod 3, as the
   * engine's `orientation::edge_colours` (`letters.turned(3 - k)`) computes it.
   */
  function edgeLetters(tile) {
    const letters = String(tile).slice(0, 3).toUpperCase();
    const k = Number(String(tile).charAt(3)) % 3 || 0;
    return [0, 1, 2].map((i) => letters.charAt((((i - k) % 3) + 3) % 3));
  }

  /** The tile's value, whatever turn its letters are written in; null if unknown. */
  function tileValue(tile) {
    const l = String(tile).slice(0, 3).toUpperCase();
    for (const turned of [l, l.slice(1) + l[0], l.slice(2) + l.slice(0, 2)]) {
      if (turned in TILE_VALUES) return TILE_VALUES[turned];
    }
    return null;
  }

  const pointsAttr = (list) => list.map(([x, y]) => `${round(x)},${round(y)}`).join(" ");
  const round = (v) => Math.round(v * 100) / 100;

  /**
   * A tile drawn into `group` on a triangle with these corners: one wedge per edge,
   * from the centre to that edge, in the edge's colour, and the value in the middle.
   */
  function drawTile(group, tile, corners, centre, withValue) {
    const letters = edgeLetters(tile);
    for (let e = 0; e < 3; e++) {
      const letter = letters[e];
      group.appendChild(svgEl("polygon", {
        class: "wedge wedge-" + (EDGE_COLOURS[letter] ? letter : "unknown"),
        points: pointsAttr([centre, corners[e], corners[(e + 1) % 3]]),
        fill: EDGE_COLOURS[letter] || "#888",
      }));
    }
    group.appendChild(svgEl("polygon", { class: "tile-outline", points: pointsAttr(corners) }));
    const value = tileValue(tile);
    if (withValue && value !== null) {
      group.appendChild(svgEl("circle", { class: "tile-value-bg", cx: centre[0], cy: centre[1], r: 12.5 }));
      const t = svgEl("text", {
        class: "tile-value", x: centre[0], y: centre[1],
        "text-anchor": "middle", "dominant-baseline": "central",
      });
      t.textContent = String(value);
      group.appendChild(t);
    }
  }

  const spectrangle = { built: false, fields: [] };

  /** Draws the 36 empty fields once; tiles come and go inside each field's group. */
  function buildSpectrangleBoard() {
    svg.replaceChildren();
    const pad = 14;
    const width = ROWS * SIDE;
    const height = ROWS * HEIGHT;
    svg.setAttribute("viewBox", `${-width / 2 - pad} ${-pad} ${width + 2 * pad} ${height + 2 * pad}`);
    svg.setAttribute("class", "spectrangle-board");
    // The board's dark frame: the big triangle, its stroke as wide as the padding.
    svg.appendChild(svgEl("polygon", {
      class: "frame", points: pointsAttr([[0, 0], [width / 2, height], [-width / 2, height]]),
    }));
    spectrangle.fields = [];
    for (let index = 0; index < 36; index++) {
      const geometry = fieldGeometry(index);
      const group = svgEl("g", {
        class: "field " + (geometry.up ? "up" : "down"),
        "data-field": index,
      });
      svg.appendChild(group);
      spectrangle.fields.push({ group, geometry, tile: undefined, bonus: undefined });
    }
    spectrangle.built = true;
  }

  /** (Re)draws one field: empty with its number (and bonus), or holding its tile. */
  function drawField(field, tile, bonus) {
    const { group, geometry } = field;
    if (field.tile === tile && field.bonus === bonus) return;
    field.tile = tile;
    field.bonus = bonus;
    group.replaceChildren();
    group.setAttribute("class", `field ${geometry.up ? "up" : "down"}${bonus > 1 ? " bonus" : ""}${tile ? " taken" : ""}`);
    if (tile) group.setAttribute("data-tile", tile);
    else group.removeAttribute("data-tile");

    const [x, y] = geometry.centre;
    const title = svgEl("title");
    title.textContent = `field ${geometry.index}${bonus > 1 ? ` (×${bonus})` : ""}` +
      (tile ? `: ${tile}, ${edgeLetters(tile).map((l) => COLOUR_NAMES[l] || l).join(", ")} (${geometry.up ? "bottom, right, left" : "top, left, right"})` : "");
    group.appendChild(title);
    group.appendChild(svgEl("polygon", { class: "field-bg", points: pointsAttr(geometry.corners) }));
    if (tile) {
      drawTile(group, tile, geometry.corners, geometry.centre, true);
      if (bonus > 1) {
        // A dashed gold ring on a dark halo: visible on any tile colour.
        const ring = pointsAttr(shrink(geometry.corners, geometry.centre, 0.86));
        group.appendChild(svgEl("polygon", { class: "bonus-halo", points: ring }));
        group.appendChild(svgEl("polygon", { class: "bonus-ring", points: ring }));
      }
      return;
    }
    // Empty: the field number, and the bonus factor when it has one.
    const numberY = bonus > 1 ? (geometry.up ? y + 17 : y - 17) : y;
    const number = svgEl("text", {
      class: "field-number", x, y: numberY, "text-anchor": "middle", "dominant-baseline": "central",
    });
    number.textContent = String(geometry.index);
    if (bonus > 1) {
      const factor = svgEl("text", {
        class: "bonus-factor", x, y: geometry.up ? y - 6 : y + 6,
        "text-anchor": "middle", "dominant-baseline": "central",
      });
      factor.textContent = `×${bonus}`;
      group.appendChild(factor);
    }
    group.appendChild(number);
  }

  /** The corners moved towards the centre by `factor` (1 keeps them). */
  function shrink(corners, centre, factor) {
    return corners.map(([cx, cy]) => [centre[0] + (cx - centre[0]) * factor, centre[1] + (cy - centre[1]) * factor]);
  }

  function renderSpectrangleBoard(state) {
    if (!spectrangle.built) buildSpectrangleBoard();
    showNote("");
    const fields = Array.isArray(state.fields) ? state.fields : [];
    const bonus = new Map();
    for (const b of Array.isArray(state.bonus) ? state.bonus : []) bonus.set(Number(b.field), Number(b.factor));
    const placed = [];
    spectrangle.fields.forEach((field, index) => {
      const tile = typeof fields[index] === "string" && fields[index] ? fields[index] : null;
      drawField(field, tile, bonus.get(index) || 1);
      if (tile) placed.push(`${tile} on field ${index}`);
    });
    svg.setAttribute("aria-label",
      `Spectrangle board, ${count(placed.length, "tile")} of 36 placed` +
      (placed.length ? `: ${placed.join(", ")}.` : "."));
  }

  /** A small picture of a tile as dealt (pointing up), for the hands. */
  function handTile(tile) {
    const s = 40;
    const h = (s * Math.sqrt(3)) / 2;
    const corners = [[-s / 2, h], [s / 2, h], [0, 0]]; // bottom, right, left (pointing up)
    const centre = [0, (2 * h) / 3];
    const picture = svgEl("svg", {
      class: "hand-tile", viewBox: `${-s / 2 - 2} -2 ${s + 4} ${h + 4}`,
      role: "img", "aria-label": `${tile}, worth ${tileValue(tile) ?? "?"}`,
      "data-hand-tile": tile,
    });
    const title = svgEl("title");
    title.textContent = String(tile);
    picture.appendChild(title);
    drawTile(picture, tile, corners, centre, false);
    return picture;
  }

  // ---------------------------------------------------------------- side panel

  /** "12 s", "3 min 05 s": a wait, whole seconds. */
  function waitText(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  }

  /** Shows how long the player to move has been waited for (`since`: RFC 3339), or null. */
  function waitedFor(since) {
    const start = Date.parse(since || "");
    if (Number.isNaN(start)) return null;
    const node = el("span", "waited");
    node.dataset.since = String(start);
    node.textContent = `waiting ${waitText((Date.now() - start) / 1000)}`;
    return node;
  }

  // The wait counts on, once a second, without a message from the server.
  setInterval(() => {
    for (const node of document.querySelectorAll(".waited[data-since]")) {
      node.textContent = `waiting ${waitText((Date.now() - Number(node.dataset.since)) / 1000)}`;
    }
  }, 1000);

  function statusLine(state) {
    const box = el("section", "card status-card");
    const top = append(el("div", "status-row"),
      el("span", `status status-${state.status}`, STATUS_WORDS[state.status] || state.status),
      el("span", "front-name", FRONT_NAMES[front] || front));
    box.appendChild(top);
    if (state.status === "playing" && state.turn !== null && state.turn !== undefined) {
      const turn = el("p", "turn-line");
      turn.appendChild(el("span", "turn-label", "To play: "));
      turn.appendChild(el("strong", "turn-name", state.turn));
      const waited = waitedFor(state.turn_since);
      if (waited) turn.appendChild(waited);
      box.appendChild(turn);
    } else if (state.status === "waiting") {
      box.appendChild(el("p", "turn-line muted",
        front === "go" && (state.board === null || state.board === undefined)
          ? "Waiting for the configuration"
          : "Waiting for players"));
    }
    return box;
  }

  function fact(list, term, value, className) {
    const row = el("div", "fact" + (className ? " " + className : ""));
    row.appendChild(el("dt", "", term));
    row.appendChild(el("dd", "", value));
    list.appendChild(row);
  }

  function resultBox(state) {
    if (state.status !== "finished" || !state.result) return null;
    return append(el("section", "card result-card"), el("h2", "", "Result"), el("p", "result-text", state.result));
  }

  /** The player's name, with a "to play" tag after it on their turn ("winner" at the end). */
  function nameLine(name, toMove, won, linked = true) {
    const line = el("span", "name-line");
    if (linked) {
      // A player's name links to its report card (a bot's card counts its games).
      const link = el("a", "name name-link", name);
      link.href = `/client/${encodeURIComponent(front)}/${encodeURIComponent(name)}`;
      line.appendChild(link);
    } else {
      line.appendChild(el("span", "name", name));
    }
    if (toMove) line.appendChild(el("span", "tag", "to play"));
    if (won) line.appendChild(el("span", "tag tag-winner", "winner"));
    return line;
  }

  function stoneIcon(colour) {
    const name = colour === 1 ? "black" : colour === 2 ? "white" : "unknown";
    const icon = el("span", `stone-icon ${name}`);
    icon.setAttribute("aria-hidden", "true");
    return icon;
  }

  /** The Go panel: players with colours, turn, captures, score, moves, result. */
  function goPanel(state) {
    const players = Array.isArray(state.players) ? state.players : [];
    const captures = state.captures || {};
    const score = state.score || null;
    const list = el("ol", "player-list");
    // Bkgo has two seats; an empty one is left out of `players`, so show it as free.
    const rows = front === "bkgo"
      ? [1, 2].map((c) => players.find((p) => p.colour === c) || { name: null, colour: c })
      : players;
    for (const player of rows) {
      const colourName = player.colour === 1 ? "black" : player.colour === 2 ? "white" : null;
      const toMove = state.status === "playing" && player.name !== null && player.name === state.turn;
      const item = el("li", "player" + (toMove ? " to-move" : "") + (player.name === null ? " free" : ""));
      item.appendChild(stoneIcon(player.colour));
      const who = el("div", "who");
      who.appendChild(player.name === null
        ? nameLine("free seat", false, false, false)
        : nameLine(player.name, toMove));
      const detail = [];
      if (colourName) {
        detail.push(colourName);
        if (typeof captures[colourName] === "number") detail.push(count(captures[colourName], "capture"));
        if (score && typeof score[colourName] === "number") detail.push(`${points(score[colourName])} points`);
      } else {
        detail.push("colour not chosen yet");
      }
      who.appendChild(el("span", "detail", detail.join(" · ")));
      item.appendChild(who);
      list.appendChild(item);
    }
    if (!rows.length) list.appendChild(el("li", "player free", "No players yet"));

    const facts = el("dl", "facts");
    if (state.size) fact(facts, "Board", `${state.size} × ${state.size}`);
    fact(facts, "Moves", String(state.moves ?? 0));
    if (typeof state.board === "string" && go.size) {
      fact(facts, "Last move", lastMoveText(state.last_move, state.board, go.size));
    }
    if (typeof state.watchers === "number") fact(facts, "Watching", String(state.watchers));
    if (score) fact(facts, "Score", `black ${points(score.black)}, white ${points(score.white)}`, "wide");
    fact(facts, "Captures", `black ${captures.black ?? 0}, white ${captures.white ?? 0}`, "wide");

    const links = el("p", "links");
    if (state.board !== null && state.board !== undefined) {
      const sgf = el("a", "sgf", "Download SGF");
      sgf.href = `/game/${front}/${gameId}.sgf`;
      links.appendChild(sgf);
    }
    return [
      statusLine(state),
      resultBox(state),
      append(el("section", "card"), el("h2", "", front === "bkgo" ? "Seats" : "Players"), list),
      append(el("section", "card"), facts, links.childNodes.length ? links : null),
    ];
  }

  /** The Spectrangle panel: players in turn order with score, tiles and hand. */
  function spectranglePanel(state) {
    const players = (Array.isArray(state.players) ? state.players.slice() : [])
      .sort((a, b) => (a.colour ?? 99) - (b.colour ?? 99));
    // Once the game is over, the best score wins (ties share it).
    const best = Math.max(...players.map((p) => Number(p.score) || 0));
    const list = el("ol", "player-list spectrangle-players");
    for (const player of players) {
      const toMove = state.status === "playing" && player.name === state.turn;
      const won = state.status === "finished" && players.length > 0 && (Number(player.score) || 0) === best;
      const item = el("li", "player" + (toMove ? " to-move" : "") + (won ? " winner" : ""));
      const seat = el("span", "seat", player.colour ?? "–");
      seat.setAttribute("aria-label", player.colour ? `seat ${player.colour}` : "no seat yet");
      item.appendChild(seat);
      const who = el("div", "who");
      who.appendChild(nameLine(player.name, toMove, won));
      who.appendChild(el("span", "detail", count(player.tiles ?? 0, "tile")));
      const hand = el("div", "hand");
      hand.setAttribute("aria-label", `hand of ${player.name}`);
      for (const tile of Array.isArray(player.hand) ? player.hand : []) hand.appendChild(handTile(tile));
      if (hand.childNodes.length) who.appendChild(hand);
      item.appendChild(who);
      const score = el("span", "score", player.score ?? 0);
      score.setAttribute("aria-label", `${player.score ?? 0} points`);
      item.appendChild(score);
      list.appendChild(item);
    }
    if (!players.length) list.appendChild(el("li", "player free", "No players yet"));

    const facts = el("dl", "facts");
    fact(facts, "Moves", String(state.moves ?? 0));
    fact(facts, "Bag", count(state.bag ?? 0, "tile"));
    const placed = (Array.isArray(state.fields) ? state.fields : []).filter(Boolean).length;
    fact(facts, "On the board", count(placed, "tile"));
    return [
      statusLine(state),
      resultBox(state),
      append(el("section", "card"), el("h2", "", "Players"), list),
      append(el("section", "card"), facts),
    ];
  }

  // ---------------------------------------------------------------- one state

  function render(state) {
    body.dataset.status = state.status || "";
    if (typeof state.watchers === "number") body.dataset.watchers = String(state.watchers);
    refreshTitle(state);
    let parts;
    if (front === "spectrangle") {
      renderSpectrangleBoard(state);
      parts = spectranglePanel(state);
    } else {
      renderGoBoard(state);
      parts = goPanel(state);
    }
    panel.replaceChildren(...parts.filter(Boolean));
  }

  if (!front) {
    setConnection("lost");
    showNote("This is not a game page.");
    return;
  }
  follow(`/events/${front}/${gameId}`, { state: render });
})();
