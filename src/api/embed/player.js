// The puzzle player of GET /embed and GET /embed/puzzles/{id}: the engine's SVG board made
// playable, judged move by move by the public API (/v1/play or /v1/puzzles/{id}/play, with
// /v1/analyze for the legal moves and /v1/solve for the solution). No library, no build step.
//
// The contract sites and tests rely on: every square is an element with `data-square` (in the
// page's coordinates), every piece one with `data-piece` (its FEN letter); the verdict is the
// `data-verdict` of the `role="status"` element (`correct`, `wrong`, `illegal`, `solved` or
// `unknown`), whose text says it in a sentence of the page's language; the buttons carry
// `data-action="hint|solution|retry|key|next"` (`key`: the piece key, each kind of piece on the board
// with its name and how it moves and captures, in the page's language; `next`: shown once the
// puzzle is solved or failed on the pages of a run of puzzles, /embed/collections/{name} and
// /embed/next); each square has an `aria-label` naming it and its piece. Events go to the page
// around with postMessage: {type: "baroque-puzzle", event: "move" | "wrong" | "solved" | "attempt" |
// "resize", ...} (`resize` with the page's `height` in CSS pixels whenever it changes, for a site
// that sizes its iframe to it; `attempt` once a puzzle, with `solved`: true when it was solved
// without a wrong move, a hint or the solution, false at the first of those, for the site to
// record with POST /v1/puzzles/{id}/attempts; on /embed/next with the visitor's rating before it,
// `player`, and after it, `player_after`).
'use strict';
(function () {
  const config = JSON.parse(document.getElementById('baroque-config').textContent);

  const WORDS = {
    en: {
      hint: 'Hint', solution: 'Solution', retry: 'Retry', board: 'Board', empty: 'empty',
      white: 'White to move', black: 'Black to move', choose: 'Which move?',
      hintText: (sq) => `Move the piece on ${sq}.`,
      refuted: (m) => `Refuted by ${m}. Try again.`,
      correct: (side, m) => (m ? `Correct! ${side === 'white' ? 'White' : 'Black'} answers ${m}.` : 'Correct!'),
      solved: (side, m) => (m ? `Solved! ${side === 'white' ? 'White' : 'Black'} answers ${m}.` : 'Solved!'),
      illegal: (reason, piece, from, to) => ({
        frozen: `The ${piece || 'piece'} on ${from} is immobilized: it cannot move.`,
        self_check: 'That move would leave the King capturable.',
        no_piece: `There is no piece of the side to move on ${from}.`,
      }[reason] || (piece ? `The ${piece} on ${from} cannot move to ${to}.` : 'That move is not possible here.')),
      wrong: 'That is not the solution. Try again.',
      unknown: 'The service could not judge the move in time.',
      stipulation: (s) => `Stipulation: ${s}`, destination: 'a destination',
      timeout: 'The service did not answer in time.', offline: 'The service cannot be reached.',
      retryAfter: (s) => `Try again in ${s} s.`,
      key: 'Pieces', keyTitle: 'The pieces on the board',
      next: 'Next puzzle', finished: 'That was the collection\'s last puzzle.',
      rating: (before, after) => `Your rating: ${before} → ${after}`,
    },
    fr: {
      hint: 'Indice', solution: 'Solution', retry: 'Réessayer', board: 'Échiquier', empty: 'vide',
      white: 'Les Blancs jouent', black: 'Les Noirs jouent', choose: 'Quel coup ?',
      hintText: (sq) => `Jouez la pièce en ${sq}.`,
      refuted: (m) => `Réfuté par ${m}. Réessayez.`,
      correct: (side, m) => (m ? `Exact ! ${side === 'white' ? 'Les Blancs répondent' : 'Les Noirs répondent'} ${m}.` : 'Exact !'),
      solved: (side, m) => (m ? `Résolu ! ${side === 'white' ? 'Les Blancs répondent' : 'Les Noirs répondent'} ${m}.` : 'Résolu !'),
      illegal: (reason, piece, from, to) => ({
        frozen: `La pièce en ${from} est immobilisée : elle ne peut pas bouger.`,
        self_check: 'Ce coup laisserait le Roi capturable.',
        no_piece: `Aucune pièce du camp au trait en ${from}.`,
      }[reason] || (piece ? `La pièce en ${from} ne peut pas aller en ${to}.` : 'Ce coup est impossible ici.')),
      wrong: 'Ce n’est pas la solution. Réessayez.',
      unknown: 'Le service n’a pas pu juger le coup à temps.',
      stipulation: (s) => `Énoncé : ${s}`, destination: 'une destination',
      timeout: 'Le service n’a pas répondu à temps.', offline: 'Le service est injoignable.',
      retryAfter: (s) => `Réessayez dans ${s} s.`,
      key: 'Pièces', keyTitle: 'Les pièces de l’échiquier',
      next: 'Problème suivant', finished: 'C’était le dernier problème de la collection.',
      rating: (before, after) => `Votre classement : ${before} → ${after}`,
    },
  };
  // The piece key: each kind of piece by its engine name (the board's titles), per game, with
  // its name and one line on how it moves and captures, in each language (from the rule
  // documents: the Wikipedia and vchess pages for Baroque, the chessvariants.com page for Rococo).
  const QUEEN_EN = 'Moves like a chess queen, never onto a piece';
  const QUEEN_FR = 'Se déplace comme une dame, jamais sur une pièce';
  const PIECES = {
    en: {
      baroque: {
        King: ['King', 'Steps one square in any direction and captures by moving onto an enemy piece; a King that cannot escape capture is mated.'],
        Pawn: ['Pawn', 'Moves like a chess rook; captures an enemy piece it traps on a rank or file between itself and a friendly piece.'],
        Withdrawer: ['Withdrawer', `${QUEEN_EN}; captures an enemy piece next to it by moving directly away from it.`],
        'Long Leaper': ['Long Leaper', `${QUEEN_EN}; captures by jumping over enemy pieces on its line, each with an empty square beyond.`],
        Coordinator: ['Coordinator', `${QUEEN_EN}; captures the enemy pieces where its rank and file cross its own King's file and rank.`],
        Immobilizer: ['Immobilizer', `${QUEEN_EN}; never captures, but freezes the enemy pieces next to it: they cannot move.`],
        Chameleon: ['Chameleon', `${QUEEN_EN}; captures each enemy piece the way that piece captures, and freezes an enemy Immobilizer next to it.`],
      },
      rococo: {
        King: ['King', 'Moves and captures as a chess King; the game is won by capturing the enemy King.'],
        'Cannon Pawn': ['Cannon Pawn', 'Steps one square in any direction, or leaps over an adjacent piece to the square beyond; captures by leaping onto an enemy piece just beyond the piece it leaps; promotes on the far ranks.'],
        Withdrawer: ['Withdrawer', `${QUEEN_EN}; captures an enemy piece next to it by moving directly away from it.`],
        'Long Leaper': ['Long Leaper', `${QUEEN_EN}; captures by jumping over enemy pieces on its line, each with an empty square beyond.`],
        Advancer: ['Advancer', `${QUEEN_EN}; captures the enemy piece just beyond the square where it stops, in the line of its move.`],
        Immobilizer: ['Immobilizer', `${QUEEN_EN}; never captures, but freezes the enemy pieces next to it; a frozen piece may remove itself.`],
        Chameleon: ['Chameleon', `${QUEEN_EN}; captures each enemy piece the way that piece captures.`],
        Swapper: ['Swapper', 'Moves like a chess queen, or swaps places with any piece a clear queen\'s move away; may remove an adjacent piece together with itself.'],
        'Pushme-Pullyu': ['Pushme-Pullyu', `${QUEEN_EN}; captures as a Withdrawer and as an Advancer, both in one move when it can.`],
      },
      rococoNote: 'The outer ring of squares may be entered only to capture.',
    },
    fr: {
      baroque: {
        King: ['Roi', 'Avance d’une case dans toute direction et prend en occupant la case d’une pièce ennemie ; un Roi qui ne peut échapper à la prise est mat.'],
        Pawn: ['Pion', 'Se déplace comme une tour ; prend une pièce ennemie qu’il enserre sur une rangée ou une colonne contre une pièce amie.'],
        Withdrawer: ['Retireur', `${QUEEN_FR} ; prend une pièce ennemie voisine en s’éloignant d’elle en ligne droite.`],
        'Long Leaper': ['Sauteur', `${QUEEN_FR} ; prend en sautant par-dessus des pièces ennemies de sa ligne, chacune suivie d’une case vide.`],
        Coordinator: ['Coordinateur', `${QUEEN_FR} ; prend les pièces ennemies aux croisements de sa rangée et de sa colonne avec celles de son Roi.`],
        Immobilizer: ['Immobilisateur', `${QUEEN_FR} ; ne prend jamais, mais fige les pièces ennemies voisines : elles ne peuvent bouger.`],
        Chameleon: ['Caméléon', `${QUEEN_FR} ; prend chaque pièce ennemie à la manière dont elle prend, et fige un Immobilisateur ennemi voisin.`],
      },
      rococo: {
        King: ['Roi', 'Se déplace et prend comme le Roi des échecs ; la partie se gagne en prenant le Roi ennemi.'],
        'Cannon Pawn': ['Pion-canon', 'Avance d’une case dans toute direction, ou saute une pièce voisine vers la case au-delà ; prend en sautant sur une pièce ennemie juste derrière la pièce sautée ; se promeut sur les dernières rangées.'],
        Withdrawer: ['Retireur', `${QUEEN_FR} ; prend une pièce ennemie voisine en s’éloignant d’elle en ligne droite.`],
        'Long Leaper': ['Sauteur', `${QUEEN_FR} ; prend en sautant par-dessus des pièces ennemies de sa ligne, chacune suivie d’une case vide.`],
        Advancer: ['Avanceur', `${QUEEN_FR} ; prend la pièce ennemie juste au-delà de la case où il s’arrête, dans la ligne de son coup.`],
        Immobilizer: ['Immobilisateur', `${QUEEN_FR} ; ne prend jamais, mais fige les pièces ennemies voisines ; une pièce figée peut se retirer du jeu.`],
        Chameleon: ['Caméléon', `${QUEEN_FR} ; prend chaque pièce ennemie à la manière dont elle prend.`],
        Swapper: ['Échangeur', 'Se déplace comme une dame, ou échange sa place avec toute pièce à portée de dame ; peut s’éliminer avec une pièce voisine.'],
        'Pushme-Pullyu': ['Pousse-tire', `${QUEEN_FR} ; prend comme un Retireur et comme un Avanceur, les deux à la fois s’il le peut.`],
      },
      rococoNote: 'On n’entre sur les cases du bord que pour prendre.',
    },
  };
  const pieceWords = PIECES[config.lang.split('-')[0].toLowerCase()] || PIECES.en;
  const words = WORDS[config.lang.split('-')[0].toLowerCase()] || WORDS.en;
  const SLIDE_MS = 300;

  const $ = (id) => document.getElementById(id);
  const boardBox = $('board');
  const statusEl = $('status');
  const messageEl = $('message');
  const choicesEl = $('choices');
  const movesEl = $('moves');
  const solutionEl = $('solution-text');
  const buttons = { hint: $('hint'), solution: $('solution'), retry: $('retry'), key: $('key'), next: $('next') };
  buttons.key.textContent = words.key;
  buttons.next.textContent = words.next;
  $('piece-key-title').textContent = words.keyTitle;
  buttons.hint.textContent = words.hint;
  buttons.solution.textContent = words.solution;
  buttons.retry.textContent = words.retry;
  $('stipulation').textContent = words.stipulation(config.stipulation);
  // A stored puzzle's title and caption above the board, as text (never markup).
  for (const field of ['title', 'caption']) {
    if (config[field]) {
      $(field).textContent = config[field];
      $(field).hidden = false;
      $('heading').hidden = false;
    }
  }

  const state = {
    fen: config.fen, // the position shown
    line: [], // the moves sent so far (both sides', as /v1/play takes them)
    legal: [], // the legal moves of the position shown (/v1/analyze)
    selected: null, // the square of the piece picked up
    focus: null, // the square with the keyboard's focus ring
    over: false, // solved or refuted: only retry goes on
    busy: false,
    last: null, // the UCI of the last move played on the board, highlighted
    plies: [], // the notations of the moves played on the board, in order
    key: false, // whether the first move was judged the key (a direct mate's or selfmate's)
    goal: '', // `#` or `=` once the goal was reached
    drag: null,
    attempt: null, // the attempt, once settled: {solved}
    player: null, // the visitor's rating after the attempt (/embed/next)
  };
  // Page coordinates go to the API only for Rococo's `page` names.
  const apiCoords = config.coords === 'page' ? 'page' : undefined;

  function post(event, extra) {
    const message = Object.assign(
      { type: 'baroque-puzzle', event, puzzle_id: config.puzzle_id, moves: state.line.slice(), fen: state.fen },
      extra,
    );
    window.parent.postMessage(message, '*');
  }

  /**
   * A Glicko-2 rating after one rating period of one game against `opponent`, `score` 1 a win and
   * 0 a loss: the arithmetic of POST /v1/puzzles/{id}/attempts (Glickman's "Example of the
   * Glicko-2 system": τ 0.5, ε 0.000001, the Illinois iteration), so that a page keeps its
   * visitor's rating as the service would. Ratings are {value, deviation, volatility}.
   */
  function glicko(player, opponent, score) {
    const SCALE = 173.7178;
    const TAU = 0.5;
    const mu = (player.value - 1500) / SCALE;
    const phi = player.deviation / SCALE;
    const sigma = player.volatility;
    const muJ = (opponent.value - 1500) / SCALE;
    const phiJ = opponent.deviation / SCALE;
    const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
    const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
    const v = 1 / (g * g * e * (1 - e));
    const sum = g * (score - e);
    const delta = v * sum;
    const a = Math.log(sigma * sigma);
    const f = (x) => {
      const ex = Math.exp(x);
      const d = phi * phi + v + ex;
      return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (TAU * TAU);
    };
    let A = a;
    let B;
    if (delta * delta > phi * phi + v) {
      B = Math.log(delta * delta - phi * phi - v);
    } else {
      let k = 1;
      while (f(a - k * TAU) < 0 && k < 100) k += 1;
      B = a - k * TAU;
    }
    let fA = f(A);
    let fB = f(B);
    for (let i = 0; i < 100 && Math.abs(B - A) > 0.000001; i += 1) {
      const C = A + ((A - B) * fA) / (fB - fA);
      const fC = f(C);
      if (fC * fB <= 0) {
        A = B;
        fA = fB;
      } else {
        fA /= 2;
      }
      B = C;
      fB = fC;
    }
    const sigmaNew = Math.exp(A / 2);
    const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
    const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
    return {
      value: SCALE * (mu + phiNew * phiNew * sum) + 1500,
      deviation: Math.min(SCALE * phiNew, 350),
      volatility: sigmaNew,
    };
  }

  /** A rating as POST /v1/puzzles/{id}/attempts takes a player's: {rating, deviation, volatility}. */
  const asPlayer = (r) => ({ rating: r.value, deviation: r.deviation, volatility: r.volatility });

  /**
   * Settles the puzzle's attempt, once: solved (the goal reached without a wrong move, a hint or
   * the solution) or failed (the first of those). Posts `attempt`, rates the visitor on
   * /embed/next, and shows the "Next" button of a run of puzzles.
   */
  function settle(solved) {
    if (state.attempt) return;
    state.attempt = { solved };
    const extra = { solved };
    const sequence = config.sequence;
    if (sequence && sequence.kind === 'next' && config.rating) {
      state.player = glicko(sequence.player, config.rating, solved ? 1 : 0);
      extra.player = asPlayer(sequence.player);
      extra.player_after = asPlayer(state.player);
      const progress = $('progress');
      progress.textContent = words.rating(Math.round(sequence.player.value), Math.round(state.player.value));
      progress.hidden = false;
    }
    post('attempt', extra);
    if (!sequence) return;
    if (sequence.kind === 'collection' && !sequence.more) {
      const progress = $('progress');
      progress.textContent = words.finished;
      progress.hidden = false;
      return;
    }
    buttons.next.hidden = false;
  }

  /** The look of the page as the next page's query carries it (`theme` named `themeName`). */
  function lookQuery(q, themeName) {
    if (config.coords !== 'standard') q.set('coords', config.coords);
    if (config.flip) q.set('flip', 'true');
    if (config.theme !== 'light') q.set(themeName, config.theme);
    if (config.lang !== 'en') q.set('lang', config.lang);
    return q;
  }

  /** The address of the next puzzle's page. */
  function nextAddress() {
    const sequence = config.sequence;
    if (sequence.kind === 'collection') {
      const q = lookQuery(new URLSearchParams({ after: String(sequence.position) }), 'theme');
      return `/embed/collections/${encodeURIComponent(sequence.name)}?${q}`;
    }
    const player = state.player || sequence.player;
    const q = new URLSearchParams({
      rating: String(player.value),
      deviation: String(player.deviation),
      volatility: String(player.volatility),
    });
    for (const [name, value] of Object.entries(sequence.filters)) q.set(name, String(value));
    // The puzzles seen, this one last; /v1/puzzles/next takes at most 1,000.
    const seen = sequence.exclude.concat([config.puzzle_id]).slice(-1000);
    q.set('exclude', seen.join(','));
    return `/embed/next?${lookQuery(q, 'scheme')}`;
  }

  /** A call to the API, given up after 30 s; an error says what the service said. */
  async function call(path, body) {
    const init = body === undefined
      ? {}
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    init.signal = AbortSignal.timeout(30000);
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new Error(e && e.name === 'TimeoutError' ? words.timeout : words.offline);
    }
    const type = response.headers.get('Content-Type') || '';
    const data = type.includes('json') ? await response.json() : await response.text();
    if (!response.ok) {
      let text = typeof data === 'object' && data ? data.detail || data.title : `${response.status} ${response.statusText}`;
      const wait = response.headers.get('Retry-After');
      if (wait) text += ' ' + words.retryAfter(wait);
      const error = new Error(text);
      error.problem = data;
      throw error;
    }
    return data;
  }

  /** The request members naming the puzzle's position and game. */
  function position(fen) {
    const p = { fen, game: config.game };
    if (config.rules) p.rules = config.rules;
    if (apiCoords) p.coords = apiCoords;
    return p;
  }

  function play(moves, hint) {
    if (config.puzzle_id !== null) {
      const body = { moves, hint };
      if (apiCoords) body.coords = apiCoords;
      return call(`/v1/puzzles/${config.puzzle_id}/play`, body);
    }
    return call('/v1/play', Object.assign(position(config.fen), { stipulation: config.stipulation, moves, hint }));
  }

  /** The verdict: its machine word in `data-verdict` (the page's contract), a sentence as the text. */
  function show(verdict, text) {
    statusEl.className = 'status ' + (verdict || '');
    if (verdict) statusEl.setAttribute('data-verdict', verdict);
    else statusEl.removeAttribute('data-verdict');
    statusEl.textContent = verdict ? text : '';
  }

  /** A piece element as the board names it (`white Chameleon`), or null. */
  function nameOf(piece) {
    const title = piece && piece.querySelector('title');
    return title ? title.textContent.replace(/ on \S+$/, '') : null;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const svg = () => boardBox.querySelector('svg');
  const squareEl = (sq) => svg().querySelector(`.square[data-square="${CSS.escape(sq)}"]`);
  const pieceAt = (sq) => svg().querySelector(`.piece[data-square="${CSS.escape(sq)}"]`);
  /** The from and to squares of a move in UCI (`c4d5`, `e9e10`, `x0a1` in page names). */
  function squaresOf(uci) {
    const m = /^([a-z])(\d+)([a-z])(\d+)/.exec(uci);
    return m ? [m[1] + m[2], m[3] + m[4]] : [null, null];
  }

  /** Draws `fen` with the engine's own SVG, made playable. */
  async function draw(fen) {
    const q = new URLSearchParams({ fen, game: config.game, size: '480' });
    if (config.coords !== 'standard') q.set('coords', config.coords);
    if (config.flip) q.set('flip', 'true');
    const text = await call('/v1/diagram.svg?' + q.toString());
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const image = document.importNode(doc.documentElement, true);
    const hadFocus = boardBox.contains(document.activeElement);
    image.removeAttribute('aria-labelledby');
    image.setAttribute('role', 'application');
    image.setAttribute('aria-label', words.board);
    for (const piece of image.querySelectorAll('.piece')) piece.setAttribute('aria-hidden', 'true');
    for (const rect of image.querySelectorAll('.square')) {
      const sq = rect.getAttribute('data-square');
      const name = nameOf(image.querySelector(`.piece[data-square="${CSS.escape(sq)}"]`)) || words.empty;
      rect.setAttribute('role', 'button');
      rect.setAttribute('aria-pressed', 'false');
      rect.setAttribute('aria-label', `${sq}: ${name}`);
      rect.setAttribute('tabindex', '-1');
    }
    boardBox.replaceChildren(image);
    boardBox.setAttribute('data-fen', fen);
    fillKey();
    boardBox.removeAttribute('aria-busy');
    image.addEventListener('pointerdown', onPointerDown);
    image.addEventListener('pointermove', onPointerMove);
    image.addEventListener('pointerup', onPointerUp);
    image.addEventListener('pointercancel', onPointerCancel);
    image.addEventListener('keydown', onKey);
    // A click without a pointer (assistive technology's default action) picks the square.
    image.addEventListener('click', (event) => {
      const rect = event.target.closest && event.target.closest('.square');
      if (event.detail === 0 && rect) activate(rect.getAttribute('data-square'));
    });
    // The focus ring stays where it was, or starts on the top-left square as drawn.
    const topLeft = [...image.querySelectorAll('.square')].reduce((best, r) => {
      const key = (el) => [Number(el.getAttribute('y')), Number(el.getAttribute('x'))];
      const [y, x] = key(r);
      const [by, bx] = key(best);
      return y < by || (y === by && x < bx) ? r : best;
    });
    const first = state.focus && squareEl(state.focus) ? state.focus : topLeft.getAttribute('data-square');
    setFocus(first, hadFocus);
  }

  /**
   * The piece key: each kind of piece on the board, in the order of the game's start position,
   * with its picture (the board's own, White's when White has one), name and one line on how it
   * moves and captures.
   */
  function fillKey() {
    const table = pieceWords[config.game] || pieceWords.baroque;
    const order = Object.keys(table);
    const found = new Map();
    for (const piece of svg().querySelectorAll('.piece')) {
      const name = nameOf(piece);
      if (!name) continue;
      const role = name.replace(/^(white|black) /, '');
      if (!table[role]) continue;
      if (!found.has(role) || name.startsWith('white')) found.set(role, piece);
    }
    const square = svg().querySelector('.square');
    const size = square ? square.getAttribute('width') : '100';
    const list = $('piece-key-list');
    list.replaceChildren();
    for (const role of order.filter((r) => found.has(r))) {
      const [label, line] = table[role];
      const term = document.createElement('dt');
      term.setAttribute('data-role', role);
      const picture = document.createElementNS(svg().namespaceURI, 'svg');
      picture.setAttribute('viewBox', `0 0 ${size} ${size}`);
      picture.setAttribute('class', 'glyph');
      picture.setAttribute('aria-hidden', 'true');
      const glyph = found.get(role).cloneNode(true);
      glyph.removeAttribute('transform');
      glyph.removeAttribute('class');
      // Only the board's pieces carry the contract's attributes.
      glyph.removeAttribute('data-piece');
      glyph.removeAttribute('data-square');
      for (const title of glyph.querySelectorAll('title')) title.remove();
      picture.append(glyph);
      term.append(picture, document.createTextNode(label));
      const detail = document.createElement('dd');
      detail.textContent = line;
      list.append(term, detail);
    }
    const note = $('piece-key-note');
    note.textContent = config.game === 'rococo' ? pieceWords.rococoNote : '';
    note.hidden = config.game !== 'rococo';
  }

  /** Highlights the from and to squares of the last move played on the board (`data-last` on the board). */
  function markLast(uci) {
    state.last = uci || null;
    for (const rect of svg().querySelectorAll('.square.last')) rect.classList.remove('last');
    if (!state.last) {
      boardBox.removeAttribute('data-last');
      return;
    }
    for (const sq of squaresOf(state.last)) {
      const rect = sq && squareEl(sq);
      if (rect) rect.classList.add('last');
    }
    boardBox.setAttribute('data-last', state.last);
  }

  /** Draws the position and reads its legal moves. */
  async function refresh() {
    state.selected = null;
    state.legal = [];
    await draw(state.fen);
    markLast(state.last);
    const analysis = await call('/v1/analyze', position(state.fen));
    state.legal = state.over ? [] : analysis.moves;
    state.turn = analysis.side_to_move;
    $('turn').textContent = analysis.side_to_move === 'white' ? words.white : words.black;
  }

  function setFocus(sq, move) {
    const old = state.focus && squareEl(state.focus);
    if (old) {
      old.classList.remove('focus');
      old.setAttribute('tabindex', '-1');
    }
    state.focus = sq;
    const el = squareEl(sq);
    if (!el) return;
    el.setAttribute('tabindex', '0');
    if (move) {
      el.classList.add('focus');
      el.focus();
    }
  }

  const movesFrom = (sq) => state.legal.filter((m) => squaresOf(m.uci)[0] === sq);
  const destinations = (sq) => new Set(movesFrom(sq).map((m) => squaresOf(m.uci)[1]));

  function select(sq) {
    clearMarks();
    state.selected = sq;
    squareEl(sq).classList.add('selected');
    squareEl(sq).setAttribute('aria-pressed', 'true');
    for (const d of destinations(sq)) {
      const el = squareEl(d);
      if (el) {
        el.classList.add('dest');
        el.setAttribute('aria-description', words.destination);
      }
    }
  }

  function clearMarks() {
    state.selected = null;
    for (const el of svg().querySelectorAll('.square.selected, .square.dest, .square.hint')) {
      el.classList.remove('selected', 'dest', 'hint');
      el.setAttribute('aria-pressed', 'false');
      el.removeAttribute('aria-description');
    }
  }

  /** A square chosen (clicked, dropped on or picked with the keyboard). */
  function activate(sq) {
    if (state.busy || state.over) return false;
    if (state.selected && state.selected !== sq && destinations(state.selected).has(sq)) {
      choose(state.selected, sq);
      return true;
    }
    if (movesFrom(sq).length > 0 && state.selected !== sq) {
      select(sq);
      return false;
    }
    if (state.selected === sq && movesFrom(sq).some((m) => squaresOf(m.uci)[1] === sq)) {
      // A move to its own square (a Rococo suicide): the second pick plays it.
      choose(sq, sq);
      return true;
    }
    if (state.selected === sq) return false;
    if (state.selected && state.selected !== sq) {
      // Not a legal destination: the service says why, and the piece stays.
      const from = state.selected;
      clearMarks();
      submit({ notation: from + sq, uci: from + sq, captures: [] });
      return true;
    }
    clearMarks();
    return false;
  }

  /** The legal move from `from` to `to`, asked for when there are several (Rococo's kinds). */
  function choose(from, to) {
    const candidates = movesFrom(from).filter((m) => squaresOf(m.uci)[1] === to);
    clearMarks();
    if (candidates.length === 1) {
      submit(candidates[0]);
      return;
    }
    choicesEl.replaceChildren();
    const label = document.createElement('span');
    label.textContent = words.choose;
    choicesEl.append(label);
    for (const m of candidates) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = m.notation;
      b.addEventListener('click', () => {
        choicesEl.hidden = true;
        submit(m);
      });
      choicesEl.append(b);
    }
    choicesEl.hidden = false;
    // After the pointer's own focus change.
    setTimeout(() => choicesEl.querySelector('button').focus(), 0);
  }

  /** Moves `piece` from square `from` to `to`: it slides there, or, `instant`, is put there. */
  function slide(piece, from, to, instant) {
    const a = squareEl(from);
    const b = squareEl(to);
    if (!piece || !a || !b) return;
    const [x0, y0] = (piece.getAttribute('transform') || '').match(/-?[\d.]+/g).map(Number);
    const dx = Number(b.getAttribute('x')) - Number(a.getAttribute('x'));
    const dy = Number(b.getAttribute('y')) - Number(a.getAttribute('y'));
    // `dragging` turns the transition off.
    piece.classList.toggle('dragging', Boolean(instant));
    piece.style.transform = `translate(${x0}px, ${y0}px)`;
    piece.getBoundingClientRect();
    piece.style.transform = `translate(${x0 + dx}px, ${y0 + dy}px)`;
    piece.setAttribute('transform', `translate(${x0 + dx} ${y0 + dy})`);
    piece.getBoundingClientRect();
    piece.classList.remove('dragging');
  }

  /**
   * Plays `move` on the board shown: the captured pieces fade out first (they vanish from
   * squares the move never touches), the piece slides; a swapped piece slides the other way.
   */
  async function animate(move) {
    const [from, to] = squaresOf(move.uci);
    markLast(move.uci);
    const piece = from && pieceAt(from);
    const captured = new Set(move.captures.map((c) => c.square));
    const leaving = [...captured].map(pieceAt).filter(Boolean);
    for (const p of leaving) p.classList.add('leaving');
    if (leaving.length > 0) await sleep(SLIDE_MS);
    const other = to !== from && !captured.has(to) ? pieceAt(to) : null;
    if (piece && to !== from) {
      // A piece dropped there lands where it is.
      slide(piece, from, to, piece.dataset.placed === to);
      delete piece.dataset.placed;
    }
    if (other) slide(other, to, from);
    await sleep(SLIDE_MS);
    for (const p of leaving) p.remove();
    if (piece && !captured.has(from)) piece.setAttribute('data-square', to);
    if (other) other.setAttribute('data-square', from);
    addMove(move.notation);
  }

  function addMove(notation) {
    state.plies.push(notation);
    renderMoves();
  }

  /**
   * The moves as problemists number them: a number for each move of the side that starts and the
   * answer beside it (`1.Bg6xc6! Kb7xc8 2.Nc4-g8#`; a helpmate's Black starts: `1.Kd3-c2 Kb4-c3#`), a
   * number for each move of a series; `!` after a direct mate's or selfmate's key, `#` (or `=`)
   * after the move that reaches the goal.
   */
  function renderMoves() {
    const series = /^ser-/.test(config.stipulation);
    const per = series ? 1 : 2;
    const last = state.plies.length - 1;
    const written = state.plies.map((notation, i) =>
      notation + (i === 0 && state.key ? '!' : '') + (i === last && state.goal ? state.goal : ''));
    const items = [];
    for (let i = 0; i < written.length; i += per) {
      const li = document.createElement('li');
      li.textContent = `${i / per + 1}.${written.slice(i, i + per).join(' ')}`;
      items.push(li);
    }
    movesEl.replaceChildren(...items);
  }

  /** Marks the page busy (`data-busy` on the root) while the service judges and the board moves. */
  function busy(on) {
    state.busy = on;
    if (on) document.documentElement.setAttribute('data-busy', 'true');
    else document.documentElement.removeAttribute('data-busy');
  }

  async function submit(move) {
    busy(true);
    choicesEl.hidden = true;
    messageEl.textContent = '';
    const moves = state.line.concat([move.notation]);
    try {
      const answer = await play(moves, false);
      if (answer.verdict === 'illegal') {
        const [from, to] = squaresOf(move.uci);
        const reason = answer.first_illegal ? answer.first_illegal.reason : null;
        show('illegal', words.illegal(reason, nameOf(from && pieceAt(from)), from, to));
        post('move', { move: move.notation, verdict: 'illegal' });
        await refresh();
        return;
      }
      if (answer.verdict === 'unknown') {
        show('unknown', words.unknown);
        await refresh();
        return;
      }
      // Who answers: the other side than the one that moved.
      const replier = state.turn === 'white' ? 'black' : 'white';
      // A direct mate's or selfmate's first move judged right is its key (`!`).
      const key = moves.length === 1 && answer.verdict !== 'wrong' && !/^(h|ser-)/.test(config.stipulation);
      state.key = state.key || key;
      await animate(move);
      const before = state.fen;
      state.line = moves;
      state.fen = answer.fen;
      if (answer.verdict === 'wrong') {
        state.over = true;
        show('wrong', answer.refutation ? words.refuted(answer.refutation.notation) : words.wrong);
        if (answer.refutation) {
          await animate(answer.refutation);
          // The board as the refutation leaves it, drawn by the service.
          const line = await call('/v1/verify', Object.assign(position(before), { moves: [move.notation, answer.refutation.notation] }));
          state.fen = line.final_fen;
        }
        post('move', { move: move.notation, verdict: 'wrong' });
        post('wrong', { move: move.notation, refutation: answer.refutation ? answer.refutation.notation : null });
        settle(false);
        await refresh();
        buttons.retry.focus();
        return;
      }
      if (answer.reply) {
        await animate(answer.reply);
        state.line = state.line.concat([answer.reply.notation]);
      }
      if (answer.verdict === 'solved') {
        state.over = true;
        state.goal = config.stipulation.includes('=') ? '=' : '#';
        renderMoves();
        show('solved', words.solved(replier, answer.reply && answer.reply.notation));
        post('move', { move: move.notation, verdict: 'solved' });
        post('solved', {});
        settle(true);
      } else {
        show('correct', words.correct(replier, answer.reply && answer.reply.notation));
        post('move', { move: move.notation, verdict: 'correct', reply: answer.reply ? answer.reply.notation : null });
      }
      await refresh();
    } catch (error) {
      messageEl.textContent = error.message;
      await refresh().catch(() => {});
    } finally {
      busy(false);
    }
  }

  // Pointer: press on a piece to pick it up (click-click or drag), press or drop on a
  // destination to move.
  function squareOfEvent(event) {
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    const rect = hit && hit.closest && hit.closest('.square');
    return rect ? rect.getAttribute('data-square') : null;
  }

  function onPointerDown(event) {
    const sq = squareOfEvent(event);
    if (!sq) return;
    setFocus(sq, false);
    const wasSelected = state.selected === sq;
    const moved = activate(sq);
    if (!moved && state.selected === sq) {
      const piece = pieceAt(sq);
      if (piece) {
        state.drag = { from: sq, piece, startX: event.clientX, startY: event.clientY, moved: false, wasSelected };
        svg().setPointerCapture(event.pointerId);
      }
    }
  }

  function onPointerMove(event) {
    const drag = state.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 4) return;
    drag.moved = true;
    const image = svg();
    const point = image.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const p = point.matrixTransform(image.getScreenCTM().inverse());
    const size = Number(squareEl(drag.from).getAttribute('width'));
    drag.piece.classList.add('dragging');
    drag.piece.style.transform = `translate(${p.x - size / 2}px, ${p.y - size / 2}px)`;
  }

  function onPointerUp(event) {
    const drag = state.drag;
    state.drag = null;
    if (!drag) return;
    const image = svg();
    if (image.hasPointerCapture(event.pointerId)) image.releasePointerCapture(event.pointerId);
    if (!drag.moved) {
      // A click on the piece already picked up puts it down.
      if (drag.wasSelected) clearMarks();
      return;
    }
    const sq = squareOfEvent(event);
    if (sq && sq !== drag.from && destinations(drag.from).has(sq)) {
      // Dropped on a destination: the piece stays where it was dropped while the move is judged.
      const target = squareEl(sq);
      drag.piece.style.transform = `translate(${Number(target.getAttribute('x'))}px, ${Number(target.getAttribute('y'))}px)`;
      drag.piece.dataset.placed = sq;
      activate(sq);
      return;
    }
    drag.piece.classList.remove('dragging');
    drag.piece.style.transform = '';
    // Dropped elsewhere: the service says why it is no move (the piece goes back).
    if (sq && sq !== drag.from) activate(sq);
  }

  function onPointerCancel() {
    const drag = state.drag;
    state.drag = null;
    if (drag) {
      drag.piece.classList.remove('dragging');
      drag.piece.style.transform = '';
    }
  }

  // Keyboard: arrows move the focus ring as the board is drawn, Enter or Space picks up and drops.
  function onKey(event) {
    const target = event.target.closest && event.target.closest('.square');
    if (target) state.focus = target.getAttribute('data-square');
    const current = state.focus && squareEl(state.focus);
    if (!current) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[event.key]) {
      event.preventDefault();
      const [dx, dy] = steps[event.key];
      const size = Number(current.getAttribute('width'));
      const x = Number(current.getAttribute('x')) + dx * size;
      const y = Number(current.getAttribute('y')) + dy * size;
      const next = [...svg().querySelectorAll('.square')].find(
        (r) => Math.abs(Number(r.getAttribute('x')) - x) < 1 && Math.abs(Number(r.getAttribute('y')) - y) < 1,
      );
      if (next) setFocus(next.getAttribute('data-square'), true);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(state.focus);
    }
  }

  buttons.key.addEventListener('click', () => {
    const key = $('piece-key');
    key.hidden = !key.hidden;
    buttons.key.setAttribute('aria-expanded', String(!key.hidden));
  });

  buttons.hint.addEventListener('click', async () => {
    if (state.busy || state.over) return;
    try {
      const answer = await play(state.line, true);
      clearMarks();
      settle(false);
      if (answer.hint) {
        const el = squareEl(answer.hint);
        if (el) el.classList.add('hint');
        messageEl.textContent = words.hintText(answer.hint);
      }
    } catch (error) {
      messageEl.textContent = error.message;
    }
  });

  buttons.solution.addEventListener('click', async () => {
    try {
      const body = Object.assign(position(config.fen), { stipulation: config.stipulation, format: 'text' });
      solutionEl.textContent = await call('/v1/solve', body);
      solutionEl.hidden = false;
      if (!state.over) settle(false);
    } catch (error) {
      messageEl.textContent = error.message;
    }
  });

  buttons.retry.addEventListener('click', async () => {
    if (state.busy) return;
    busy(true);
    choicesEl.hidden = true;
    state.fen = config.fen;
    state.line = [];
    state.last = null;
    state.plies = [];
    state.key = false;
    state.goal = '';
    state.over = false;
    show('', '');
    messageEl.textContent = '';
    movesEl.replaceChildren();
    await refresh().catch((error) => {
      messageEl.textContent = error.message;
    });
    busy(false);
  });

  // The page's height, posted whenever it changes: the docs' responsive snippet sizes its iframe
  // to it, so that the board stays square and nothing scrolls inside the frame at any width.
  buttons.next.addEventListener('click', () => {
    if (!config.sequence || buttons.next.hidden) return;
    busy(true);
    window.location.assign(nextAddress());
  });

  let reportedHeight = 0;
  const player = document.querySelector('.player');
  new ResizeObserver(() => {
    const height = Math.ceil(player.getBoundingClientRect().height);
    if (height !== reportedHeight) {
      reportedHeight = height;
      post('resize', { height });
    }
  }).observe(player);

  refresh().then(
    () => document.documentElement.setAttribute('data-ready', 'true'),
    (error) => {
      messageEl.textContent = error.message;
    },
  );
})();
