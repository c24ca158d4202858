// The overview: every live game and the last finished ones, following /events.
//
// The stream starts with one `game` event per listed game, in the server's order (live
// games newest first, then finished ones newest first), then sends one `game` event per
// change and `gone` when a finished game drops off the list. Each game is one card,
// <a data-game="<front>/<id>">, updated in place. Text goes in through textContent only.
"use strict";

(function () {
  const FRONT_NAMES = { go: "GO!", spectrangle: "Spectrangle", bkgo: "Bkgo" };
  const STATUS_WORDS = { waiting: "Waiting", playing: "Playing", finished: "Finished" };

  const body = document.body;
  const connection = document.getElementById("connection");
  const sections = {
    live: {
      list: document.getElementById("live-games"),
      empty: document.getElementById("live-empty"),
      count: document.getElementById("live-count"),
    },
    finished: {
      list: document.getElementById("finished-games"),
      empty: document.getElementById("finished-empty"),
      count: document.getElementById("finished-count"),
    },
  };

  /** Every card by its key "front/id". */
  const cards = new Map();

  // ---------------------------------------------------------------- helpers

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function count(n, noun, plural) {
    return `${n} ${n === 1 ? noun : plural || noun + "s"}`;
  }

  // ---------------------------------------------------------------- how long a turn waits

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

  // Every wait on the page counts on, once a second, without a message from the server.
  setInterval(() => {
    for (const node of document.querySelectorAll(".waited[data-since]")) {
      node.textContent = `waiting ${waitText((Date.now() - Number(node.dataset.since)) / 1000)}`;
    }
  }, 1000);

  const keyOf = (game) => `${game.front}/${game.id}`;
  const sectionOf = (game) => (game.status === "finished" ? "finished" : "live");

  // ---------------------------------------------------------------- connection state

  function setConnection(state) {
    if (body.dataset.connection === state) return;
    body.dataset.connection = state;
    connection.textContent =
      state === "live" ? "Live" :
      state === "lost" ? "Connection lost: reconnecting…" : "Connecting…";
  }

  // ---------------------------------------------------------------- one card

  /** The players of a game as list items: colour or seat, name, who is to play. */
  function playerItems(game) {
    const players = Array.isArray(game.players) ? game.players : [];
    // Bkgo lists only taken seats; show the free one so the room reads right.
    const rows = game.front === "bkgo"
      ? [1, 2].map((c) => players.find((p) => p.colour === c) || { name: null, colour: c })
      : players.slice().sort((a, b) => (a.colour ?? 99) - (b.colour ?? 99));
    return rows.map((player) => {
      const toMove = game.status === "playing" && player.name !== null && player.name === game.turn;
      const item = el("li", "card-player" + (toMove ? " to-move" : "") + (player.name === null ? " free" : ""));
      if (game.front === "spectrangle") {
        const seat = el("span", "seat", player.colour ?? "–");
        seat.setAttribute("aria-hidden", "true");
        item.appendChild(seat);
      } else {
        const colour = player.colour === 1 ? "black" : player.colour === 2 ? "white" : "unknown";
        const icon = el("span", `stone-icon ${colour}`);
        icon.setAttribute("aria-hidden", "true");
        item.appendChild(icon);
      }
      item.appendChild(el("span", "name", player.name === null ? "free seat" : player.name));
      if (toMove) {
        item.appendChild(el("span", "tag", "to play"));
        const waited = waitedFor(game.turn_since);
        if (waited) item.appendChild(waited);
      }
      return item;
    });
  }

  /** What else there is to say in one line: size, moves, watchers. */
  function metaText(game) {
    const parts = [];
    if (game.size) parts.push(`${game.size}×${game.size}`);
    parts.push(count(game.moves ?? 0, "move"));
    if (typeof game.watchers === "number") parts.push(`${game.watchers} watching`);
    return parts.join(" · ");
  }

  /** Fills `card` (kept, so its place in the list stays) with the game's summary. */
  function fillCard(card, game) {
    card.className = `game-card front-${game.front} status-${game.status}`;
    card.href = `/game/${game.front}/${game.id}`;
    card.dataset.status = game.status;

    const head = el("div", "card-head");
    head.appendChild(el("span", "front", FRONT_NAMES[game.front] || game.front));
    head.appendChild(el("span", "game-id", game.front === "bkgo" ? "room" : `#${game.id}`));
    head.appendChild(el("span", `status status-${game.status}`, STATUS_WORDS[game.status] || game.status));

    const players = el("ul", "card-players");
    for (const item of playerItems(game)) players.appendChild(item);
    if (!players.childNodes.length) players.appendChild(el("li", "card-player free", "no players yet"));

    const parts = [head, players, el("p", "card-meta", metaText(game))];
    if (game.status === "waiting" && game.front === "go" && game.size === null) {
      parts.push(el("p", "card-note", "waiting for the configuration"));
    }
    if (game.status === "finished" && game.result) parts.push(el("p", "card-result", game.result));
    card.replaceChildren(...parts);
  }

  // ---------------------------------------------------------------- order

  /**
   * While the stream replays its list (right after it opens), cards go in the order
   * they come, after the ones already replayed; afterwards a new game, or one that
   * changes section, goes to the top of its section. The replay is over once a game
   * comes twice, a live game follows a finished one, or the stream is quiet for a
   * moment; then cards the replay did not mention (after a reconnect) are dropped.
   */
  const replay = {
    active: false,
    seen: new Set(),
    lastInSection: { live: null, finished: null },
    sawFinished: false,
    quietTimer: 0,
    capTimer: 0,
  };

  function startReplay() {
    replay.active = true;
    replay.seen = new Set();
    replay.lastInSection = { live: null, finished: null };
    replay.sawFinished = false;
    clearTimeout(replay.quietTimer);
    clearTimeout(replay.capTimer);
    // If the server lists nothing at all, end the replay anyway.
    replay.capTimer = setTimeout(endReplay, 2000);
  }

  function endReplay() {
    if (!replay.active) return;
    replay.active = false;
    clearTimeout(replay.quietTimer);
    clearTimeout(replay.capTimer);
    for (const [key, card] of cards) {
      if (!replay.seen.has(key)) {
        card.remove();
        cards.delete(key);
      }
    }
    refreshSections();
  }

  /** Whether this event still belongs to the replayed list. */
  function inReplay(game) {
    if (!replay.active) return false;
    const key = keyOf(game);
    const section = sectionOf(game);
    if (replay.seen.has(key) || (section === "live" && replay.sawFinished)) {
      endReplay();
      return false;
    }
    return true;
  }

  function placeInReplay(card, game) {
    const section = sectionOf(game);
    const list = sections[section].list;
    const previous = replay.lastInSection[section];
    if (previous && previous.parentNode === list) previous.after(card);
    else list.prepend(card);
    replay.lastInSection[section] = card;
    replay.seen.add(keyOf(game));
    if (section === "finished") replay.sawFinished = true;
    clearTimeout(replay.quietTimer);
    replay.quietTimer = setTimeout(endReplay, 150);
  }

  // ---------------------------------------------------------------- events

  function onGame(game) {
    const key = keyOf(game);
    let card = cards.get(key);
    const isNew = !card;
    if (isNew) {
      card = el("a", "game-card");
      card.dataset.game = key;
      cards.set(key, card);
    }
    const before = card.parentNode;
    fillCard(card, game);
    const target = sections[sectionOf(game)].list;
    if (inReplay(game)) {
      placeInReplay(card, game);
    } else if (isNew || before !== target) {
      target.prepend(card);
    }
    refreshSections();
  }

  function onGone(gone) {
    const key = `${gone.front}/${gone.id}`;
    const card = cards.get(key);
    if (card) {
      card.remove();
      cards.delete(key);
    }
    refreshSections();
  }

  /** Counts, and the "nothing here" lines once the list is known. */
  function refreshSections() {
    for (const section of Object.values(sections)) {
      const n = section.list.children.length;
      section.count.textContent = String(n);
      section.empty.hidden = n > 0 || replay.active;
    }
  }

  // ---------------------------------------------------------------- the stream

  /**
   * Follows /events. EventSource reconnects by itself after a network error; only when
   * the browser gives up for good (readyState CLOSED, e.g. an HTTP error) do we open a
   * new one, with a growing delay.
   */
  function follow() {
    let delay = 2000;
    function open() {
      const source = new EventSource("/events");
      source.addEventListener("open", () => {
        delay = 2000;
        setConnection("live");
        startReplay();
      });
      const handle = (fn) => (event) => {
        setConnection("live");
        try {
          fn(JSON.parse(event.data));
        } catch (err) {
          // One odd event must not stop the page from following the next ones.
          console.error("could not show the event", err);
        }
      };
      source.addEventListener("game", handle(onGame));
      source.addEventListener("gone", handle(onGone));
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
