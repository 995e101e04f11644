/**
 * What a TypeScript developer does with openapi/openapi.json, as a test.
 *
 * Run by deploy/ts-client-test.sh against a running server: it installs the pinned
 * tools, copies this file into a work folder, generates `schema.d.ts` beside it with
 * openapi-typescript, type-checks it with `tsc --strict` and runs the output:
 *
 *     node check_client.js --spec openapi/openapi.json --base-url http://127.0.0.1:8080 \
 *         [--admin-username U --admin-password P] [--seed N]
 *
 * Every request goes through openapi-fetch's `createClient<paths>()`, typed by the
 * generated `paths` and `components`: no `as` cast and no `any` anywhere, so what the
 * document declares is what the compiler holds this code to. In order, each step
 * failing the run with a message that names what is wrong:
 *
 * 1. registers an account, logs in (the bearer token added by a middleware), creates
 *    a table with two bots, joins and starts it (each with `If-Match`), and plays the
 *    whole game choosing each move from the view's `legal` field, every move with an
 *    `Idempotency-Key` and `If-Match: "<version>"`. On the way: one move sent twice
 *    with the same key answers the same, `Idempotent-Replayed: true` the second time;
 *    a move before the start and one with a stale `If-Match` are refused with the
 *    expected `ProblemCode`; the table's live stream (`/stream`, Server-Sent Events
 *    read with fetch) is followed during the whole game, its event ids consecutive,
 *    then resumed with `Last-Event-ID` from the middle and read once as NDJSON, each
 *    of these two until the heartbeat that follows the last view (a server's default
 *    heartbeat comes every 15 s: the e2e test asks for 1 s); and `/events` answers 304
 *    to its own `ETag` sent back in `If-None-Match`;
 * 2. plays two more games under bonus rules (crazy queens and waterfall; cell
 *    division, osmosis and fifths disease);
 * 3. with the admin's credentials: runs a tournament up to its first draw, and reads
 *    the draw, standings, stages, ranking and events.
 *
 * Progress goes to stderr, a short summary to stdout; the exit status is 0 only when
 * every step passed.
 */

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual, parseArgs } from "node:util";

import createClient, { type Client, type Middleware } from "openapi-fetch";

import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Api = Client<paths>;
type TableView = Schemas["TableView"];
type LegalActions = Schemas["LegalActionsInfo"];
type ActionRequest = Schemas["ActionRequest"];
type ActionResponse = Schemas["ActionResponse"];
type VisibleEvent = Schemas["VisibleEvent"];
type Problem = Schemas["Problem"];
type ProblemCode = Schemas["ProblemCode"];
type StreamMessage = Schemas["TableStreamMessage"];
type TournamentCommand = Schemas["TournamentCommand"];

/** A check that did not pass; its message says which and why. */
class Failure extends Error {}

function log(message: string): void {
  process.stderr.write(`[ts-client-test] ${message}\n`);
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) {
    throw new Failure(message);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The quoted table version, as an `ETag` and so as `If-Match`. */
function tag(version: number): string {
  return `"${version}"`;
}

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ------------------------------------------------------------------ the run's state

/** What the run saw, for the summary. */
const summary = {
  moves: new Map<string, number>(),
  streamMessages: new Map<string, number>(),
  heartbeats: 0,
};

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** A seeded generator (mulberry32): the same seed plays the same moves. */
class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    check(item !== undefined, "picking from an empty list");
    return item;
  }
}

/** The `code` values the document lists (`ProblemCode`): a refusal's code must be one. */
function problemCodes(spec: unknown): Set<string> {
  let node: unknown = spec;
  for (const key of ["components", "schemas", "ProblemCode", "enum"]) {
    check(isRecord(node), `the document has no components.schemas.ProblemCode.enum (at ${key})`);
    node = node[key];
  }
  check(Array.isArray(node), "ProblemCode.enum is not a list");
  const values: unknown[] = node;
  const codes = new Set<string>();
  for (const value of values) {
    check(typeof value === "string", `ProblemCode.enum holds ${JSON.stringify(value)}`);
    codes.add(value);
  }
  check(codes.size >= 20, `only ${codes.size} codes in ProblemCode`);
  return codes;
}

// ------------------------------------------------------------------ the client

/** Adds the session's bearer token to every request of a client. */
function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${token}`);
      return request;
    },
  };
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The parsed answer, when it came with `status`. */
function ok<T>(answer: Answer<T>, status: number, what: string): T {
  const { data, error, response } = answer;
  check(
    response.status === status && data !== undefined,
    `${what}: expected ${status}, got ${response.status}: ${JSON.stringify(error ?? data).slice(0, 500)}`,
  );
  return data;
}

/** A refusal with `status` and the expected code, one of the document's `ProblemCode`s. */
function refused(
  answer: { error?: Problem; response: Response },
  status: number,
  expected: ProblemCode,
  codes: Set<string>,
  what: string,
): Problem {
  const { error, response } = answer;
  check(response.status === status, `${what}: expected ${status}, got ${response.status}`);
  check(error !== undefined, `${what}: the refusal has no problem body`);
  const code: ProblemCode = error.code;
  check(codes.has(code), `${what}: the code ${code} is not a value of ProblemCode`);
  check(code === expected, `${what}: expected the code ${expected}, got ${code}: ${error.detail}`);
  check(
    response.headers.get("Content-Type")?.startsWith("application/problem+json") === true,
    `${what}: a problem answered as ${response.headers.get("Content-Type")}`,
  );
  return error;
}

class Session {
  constructor(
    readonly api: Api,
    readonly account: Schemas["AccountView"],
  ) {}
}

class Server {
  constructor(
    readonly baseUrl: string,
    readonly codes: Set<string>,
  ) {}

  anonymous(): Api {
    return createClient<paths>({ baseUrl: this.baseUrl });
  }

  async login(username: string, password: string): Promise<Session> {
    const session = ok(
      await this.anonymous().POST("/v1/sessions", { body: { username, password } }),
      201,
      `logging in as ${username}`,
    );
    check(session.token_type === "Bearer", `token type ${session.token_type}`);
    const api = createClient<paths>({ baseUrl: this.baseUrl });
    api.use(bearer(session.token));
    return new Session(api, session.account);
  }

  async register(username: string, password: string): Promise<Session> {
    ok(
      await this.anonymous().POST("/v1/accounts", { body: { username, password } }),
      201,
      `registering ${username}`,
    );
    return this.login(username, password);
  }
}

// ------------------------------------------------------------------ a move

/** One move among those the view's `legal` lists (the scenario of check_client.py). */
function choose(view: TableView, rng: Rng): ActionRequest | undefined {
  const legal = view.legal;
  if (!legal) {
    return undefined;
  }
  // Bonus rules (absent from `legal` when empty): keep a card of a waterfall passed to
  // us; now and then pass one of our own.
  if (legal.waterfall_pick?.length) {
    return { type: "waterfall_pick", card: rng.pick(legal.waterfall_pick) };
  }
  if (legal.waterfalls?.length && rng.next() < 0.5) {
    return { type: "waterfall", cards: rng.pick(legal.waterfalls) };
  }
  // Fifths Disease: the five of diamonds kills a pile whenever it may.
  if (legal.kill_piles?.length) {
    return { type: "kill_pile", size: rng.pick(legal.kill_piles) };
  }
  if (legal.go_along) {
    return { type: "go_along", going: rng.next() < 0.5 };
  }
  if (legal.onderkluft) {
    return { type: "onderkluft", challenge: rng.next() < 0.5 };
  }
  if (legal.call) {
    return { type: "call" };
  }
  if (legal.throws.length) {
    return play(view, legal, rng);
  }
  if (typeof legal.slap === "string") {
    return { type: "slap", card: legal.slap };
  }
  const addOn = legal.add_ons[0];
  if (addOn) {
    return { type: "add_on", cards: addOn };
  }
  return undefined;
}

function play(view: TableView, legal: LegalActions, rng: Rng): Schemas["ActionRequestPlay"] {
  const thrown = rng.pick(legal.throws);
  // Cell Division: what a throw may draw depends on its size.
  let takes = legal.draw_from_discard;
  if (legal.discard_draws?.length) {
    takes = legal.discard_draws.find((d) => d.size === thrown.length)?.cards ?? [];
  }
  const draw: Schemas["DrawRequest"] =
    takes.length && (!legal.draw_from_stock || rng.next() < 0.5)
      ? { discard: rng.pick(takes) }
      : "stock";
  const move: Schemas["ActionRequestPlay"] = { type: "play", throw: thrown, draw };
  // Crazy queens: a throw with a queen that leaves cards names a target and a card.
  const left = [...(view.hand ?? [])];
  for (const card of thrown) {
    const at = left.indexOf(card);
    check(at >= 0, `the throw ${thrown.join(" ")} is not in the hand ${left.join(" ")}`);
    left.splice(at, 1);
  }
  if (legal.queen_targets?.length && left.length && thrown.some((c) => c.startsWith("Q"))) {
    move.queen = { target: rng.pick(legal.queen_targets), give: rng.pick(left) };
  }
  return move;
}

function kindOf(move: ActionRequest): string {
  if (move.type === "play") {
    if (move.queen) {
      return "queen";
    }
    return typeof move.draw === "string" ? "play" : "play, drawing a discard";
  }
  return move.type;
}

// ------------------------------------------------------------------ the live stream

/** The lines of a response body, as they arrive (`\n` or `\r\n` ends one). */
async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n");
      while (end >= 0) {
        yield buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        end = buffer.indexOf("\n");
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function isVisibleEvent(data: unknown): data is VisibleEvent {
  return (
    isRecord(data) &&
    Number.isSafeInteger(data.version) &&
    typeof data.type === "string" &&
    isRecord(data.payload) &&
    data.payload.type === data.type
  );
}

function isTableView(data: unknown): data is TableView {
  return (
    isRecord(data) &&
    typeof data.viewer === "string" &&
    isRecord(data.table) &&
    Number.isSafeInteger(data.table.id) &&
    Number.isSafeInteger(data.table.version) &&
    ["open", "playing", "finished"].includes(String(data.table.status))
  );
}

function isProblem(data: unknown, codes: Set<string>): data is Problem {
  return (
    isRecord(data) &&
    typeof data.code === "string" &&
    codes.has(data.code) &&
    typeof data.status === "number" &&
    typeof data.title === "string" &&
    typeof data.detail === "string" &&
    typeof data.type === "string"
  );
}

/** One message of the stream, typed as the document's `TableStreamMessage`. */
function streamMessage(
  kind: string,
  id: number | null,
  data: unknown,
  codes: Set<string>,
): StreamMessage {
  switch (kind) {
    case "event":
      check(id !== null && Number.isSafeInteger(id), `an event without an id: ${id}`);
      check(isVisibleEvent(data), `an event that is no VisibleEvent: ${JSON.stringify(data)}`);
      check(data.version === id, `the event of version ${data.version} came with the id ${id}`);
      return { kind: "event", id, data };
    case "view":
      check(id === null, `a view with the id ${id}`);
      check(isTableView(data), `a view that is no TableView: ${JSON.stringify(data).slice(0, 300)}`);
      return { kind: "view", id: null, data };
    case "error":
      check(id === null, `an error with the id ${id}`);
      check(isProblem(data, codes), `an error that is no Problem: ${JSON.stringify(data)}`);
      return { kind: "error", id: null, data };
  }
  throw new Failure(`a stream message of unknown kind ${JSON.stringify(kind)}`);
}

/** Server-Sent Events: `id:`, `event:` and `data:` lines, a blank line ends a message,
 * a `:` line is a comment (the server's heartbeat). */
async function* sseMessages(
  lines: AsyncIterable<string>,
  codes: Set<string>,
): AsyncGenerator<StreamMessage | "heartbeat"> {
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  for await (const line of lines) {
    if (line === "") {
      if (data.length) {
        const parsed: unknown = JSON.parse(data.join("\n"));
        check(id === undefined || /^\d+$/.test(id), `an SSE id that is no version: ${id}`);
        yield streamMessage(event || "message", id === undefined ? null : Number(id), parsed, codes);
      }
      id = undefined;
      event = "";
      data = [];
      continue;
    }
    if (line.startsWith(":")) {
      yield "heartbeat";
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") {
      id = value;
    } else if (field === "event") {
      event = value;
    } else if (field === "data") {
      data.push(value);
    } else if (field !== "retry") {
      throw new Failure(`an SSE line of unknown field: ${JSON.stringify(line)}`);
    }
  }
}

/** NDJSON: each line exactly `{"kind": .., "id": .., "data": ..}`; an empty line is the
 * heartbeat. */
async function* ndjsonMessages(
  lines: AsyncIterable<string>,
  codes: Set<string>,
): AsyncGenerator<StreamMessage | "heartbeat"> {
  for await (const line of lines) {
    if (line === "") {
      yield "heartbeat";
      continue;
    }
    const parsed: unknown = JSON.parse(line);
    check(
      isRecord(parsed) && isDeepStrictEqual(Object.keys(parsed).sort(), ["data", "id", "kind"]),
      `an NDJSON line that is not {kind, id, data}: ${line.slice(0, 300)}`,
    );
    const { kind, id, data } = parsed;
    check(typeof kind === "string", `an NDJSON kind that is no string: ${line.slice(0, 300)}`);
    check(id === null || typeof id === "number", `an NDJSON id that is no version: ${id}`);
    yield streamMessage(kind, id, data, codes);
  }
}

interface StreamRead {
  messages: StreamMessage[];
  heartbeats: number;
}

interface StreamRequest {
  format: "sse" | "ndjson";
  /** Resume after this version (`Last-Event-ID`); without it the stream starts with
   * the current view. */
  lastEventId?: number;
  /** Read until this message (it included). */
  until: (message: StreamMessage) => boolean;
  /** Then on until a heartbeat: the stream is quiet, and still open. */
  heartbeat?: boolean;
  seconds: number;
  /** Aborted by the caller to stop early (a step that failed). */
  controller?: AbortController;
}

/** Reads `GET /v1/tables/{id}/stream` through the client (fetch streaming the body: an
 * EventSource could not send the bearer token) until `until` holds, then aborts it:
 * the stream never ends by itself. */
async function readStream(
  session: Session,
  table: number,
  request: StreamRequest,
  codes: Set<string>,
): Promise<StreamRead> {
  const what = `the ${request.format} stream of table ${table}`;
  for (let attempt = 1; ; attempt++) {
    const controller = request.controller ?? new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.seconds * 1000);
    const messages: StreamMessage[] = [];
    let heartbeats = 0;
    let arrived = false;
    let again = false;
    try {
      const header =
        request.lastEventId === undefined ? undefined : { "Last-Event-ID": request.lastEventId };
      const accept = request.format === "sse" ? "text/event-stream" : "application/x-ndjson";
      const { data, error, response } = await session.api.GET("/v1/tables/{id}/stream", {
        params: { path: { id: table }, header },
        headers: { Accept: accept },
        parseAs: "stream",
        signal: controller.signal,
      });
      // A stream the server has not yet seen closed still counts against the token's.
      if (response.status === 429 && attempt < 10) {
        const wait = Math.max(1, Number(response.headers.get("Retry-After")) || 1);
        log(`${what}: too many streams (${error?.code}), again in ${wait} s`);
        clearTimeout(timer);
        await sleep(wait * 1000);
        again = true;
        continue;
      }
      check(
        response.status === 200 && data !== undefined && data !== null,
        `${what}: ${response.status} ${JSON.stringify(error)}`,
      );
      const type = response.headers.get("Content-Type") ?? "";
      check(type.startsWith(accept), `${what} came as ${type}`);
      const lines = linesOf(data);
      const source =
        request.format === "sse" ? sseMessages(lines, codes) : ndjsonMessages(lines, codes);
      for await (const message of source) {
        if (message === "heartbeat") {
          heartbeats++;
          if (arrived) {
            return { messages, heartbeats };
          }
          continue;
        }
        check(!arrived, `${what}: a ${message.kind} after the last change, not a heartbeat`);
        messages.push(message);
        if (message.kind === "error") {
          const problem = message.data;
          throw new Failure(`${what} sent an error: ${problem.code}: ${problem.detail}`);
        }
        if (request.until(message)) {
          if (!request.heartbeat) {
            return { messages, heartbeats };
          }
          arrived = true;
        }
      }
      throw new Failure(`${what} ended after ${messages.length} messages`);
    } catch (error) {
      if (timedOut) {
        const last = messages.at(-1);
        throw new Failure(
          `${what}: not done within ${request.seconds} s; ${messages.length} messages read, ` +
            `the last: ${last ? `${last.kind} ${last.id}` : "none"}`,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (!again) {
        controller.abort();
      }
      summary.heartbeats += heartbeats;
      for (const message of messages) {
        count(summary.streamMessages, `${request.format} ${message.kind}`);
      }
    }
  }
}

/** The versions of the events among `messages`, checked consecutive from `first`. */
function consecutiveEvents(messages: StreamMessage[], first: number, what: string): number[] {
  const versions: number[] = [];
  for (const message of messages) {
    if (message.kind === "event") {
      const expected = first + versions.length;
      check(message.id === expected, `${what}: event ${message.id} where ${expected} was due`);
      check(message.data.version === message.id, `${what}: an event's data at another version`);
      versions.push(message.id);
    }
  }
  return versions;
}

function finished(message: StreamMessage): boolean {
  return message.kind === "view" && message.data.table.status === "finished";
}

/** After the game: the live stream read during it, resumed from its middle, and read
 * once as NDJSON. */
async function checkStreams(
  session: Session,
  table: number,
  live: StreamRead,
  finalVersion: number,
  codes: Set<string>,
): Promise<void> {
  const first = live.messages[0];
  check(first?.kind === "view", `the live stream began with ${first?.kind}, not the view`);
  const start = first.data.table.version;
  const versions = consecutiveEvents(live.messages, start + 1, "the live stream");
  check(
    versions.at(-1) === finalVersion,
    `the live stream's last event is ${versions.at(-1)}, the table is at ${finalVersion}`,
  );
  const views = live.messages.filter((m) => m.kind === "view").length;
  log(
    `table ${table}: live stream followed the game: events ${start + 1}..${finalVersion} ` +
      `with no gap, ${views} views, ${live.heartbeats} heartbeats`,
  );

  const middle = Math.floor((start + finalVersion) / 2);
  const resumed = await readStream(
    session,
    table,
    { format: "sse", lastEventId: middle, until: finished, heartbeat: true, seconds: 60 },
    codes,
  );
  const next = resumed.messages[0];
  check(
    next?.kind === "event" && next.id === middle + 1,
    `resumed with Last-Event-ID: ${middle}, the stream began with ${next?.kind} ${next?.id}`,
  );
  const again = consecutiveEvents(resumed.messages, middle + 1, "the resumed stream");
  check(again.at(-1) === finalVersion, `the resumed stream stopped at ${again.at(-1)}`);
  const last = resumed.messages.at(-1);
  check(last !== undefined && finished(last), "the resumed stream ends on the finished view");
  log(
    `table ${table}: resumed with Last-Event-ID: ${middle}: events ${middle + 1}..${finalVersion}, ` +
      `the view, then a heartbeat`,
  );

  const from = Math.max(start, finalVersion - 3);
  const ndjson = await readStream(
    session,
    table,
    { format: "ndjson", lastEventId: from, until: finished, heartbeat: true, seconds: 60 },
    codes,
  );
  const lines = consecutiveEvents(ndjson.messages, from + 1, "the NDJSON stream");
  check(lines.at(-1) === finalVersion, `the NDJSON stream stopped at ${lines.at(-1)}`);
  const view = ndjson.messages.at(-1);
  check(view?.kind === "view" && finished(view), "the NDJSON stream ends on the finished view");
  check(view.data.seat === 0, `the NDJSON view is not the caller's (seat ${view.data.seat})`);
  log(
    `table ${table}: NDJSON from ${from}: ${ndjson.messages.length} lines, the last the view, ` +
      `then a heartbeat (an empty line)`,
  );
}

/** `GET /events` answers 304, with no body, to its own `ETag` in `If-None-Match`. */
async function checkConditionalGet(session: Session, table: number, version: number): Promise<void> {
  const params = { path: { id: table }, query: { after: Math.max(0, version - 2) } };
  const first = await session.api.GET("/v1/tables/{id}/events", { params });
  const page = ok(first, 200, "reading the last events");
  check(page.version === version, `the events page is at ${page.version}, not ${version}`);
  const etag = first.response.headers.get("ETag");
  check(etag === tag(version), `the events page's ETag is ${etag}, not ${tag(version)}`);
  const again = await session.api.GET("/v1/tables/{id}/events", {
    params: { ...params, header: { "If-None-Match": etag } },
  });
  check(
    again.response.status === 304,
    `If-None-Match: ${etag} answered ${again.response.status}, not 304`,
  );
  check(again.data === undefined && !again.error, "the 304 has a body");
  log(`table ${table}: /events answers 304 to If-None-Match: ${etag}`);
}

// ------------------------------------------------------------------ a game

interface GameOptions {
  preset: Schemas["Preset"];
  bonus: Schemas["BonusRule"][];
  /** Also the checks of the protocol: streams, replays, refusals, 304. */
  protocol: boolean;
}

async function playAGame(server: Server, seed: number, options: GameOptions): Promise<void> {
  const rng = new Rng(seed);
  const name = `ts-${randomBytes(4).toString("hex")}`;
  const session = await server.register(name, "ts-client-test-password");
  const { api } = session;
  log(`registered and logged in as ${name} (account ${session.account.id})`);
  const created = ok(
    await api.POST("/v1/tables", {
      body: {
        preset: options.preset,
        seats: 3,
        bots: [
          { seat: 1, kind: "greedy" },
          { seat: 2, kind: "random" },
        ],
        overrides: options.bonus.length ? { bonus_rules: options.bonus } : undefined,
      },
    }),
    201,
    "creating a table",
  );
  const table = created.id;
  const path = { id: table };

  // The live stream, followed while the game is played, until the finished view.
  const following = new AbortController();
  const live = options.protocol
    ? readStream(
        session,
        table,
        { format: "sse", until: finished, seconds: 300, controller: following },
        server.codes,
      )
    : undefined;
  // Awaited after the game; a failure before then is not an unhandled rejection.
  live?.catch(() => undefined);
  try {
    const joined = ok(
      await api.POST("/v1/tables/{id}/join", {
        params: { path, header: { "If-Match": tag(created.version) } },
        body: { seat: 0 },
      }),
      200,
      "joining",
    );
    if (options.protocol) {
      refused(
        await api.POST("/v1/tables/{id}/actions", {
          params: { path, header: { "Idempotency-Key": "too-early" } },
          body: { type: "call" },
        }),
        409,
        "table_not_started",
        server.codes,
        "a move before the start",
      );
    }
    const started = ok(
      await api.POST("/v1/tables/{id}/start", {
        params: { path, header: { "If-Match": tag(joined.version) } },
      }),
      200,
      "starting",
    );
    log(`table ${table}: joined seat 0 and started against two bots`);
    const end = await playToTheEnd(session, table, started, rng, options.protocol, server.codes);
    const standings = end.view.table.standings;
    const winner = standings?.[0];
    check(winner !== undefined, "a finished table without standings");
    log(
      `table ${table}: the game ended after ${end.moves} moves of ours; winner: ${winner.name} ` +
        `with ${winner.total}`,
    );
    if (live) {
      await checkStreams(session, table, await live, end.version, server.codes);
      await checkConditionalGet(session, table, end.version);
    }
  } finally {
    following.abort();
  }
}

interface GameEnd {
  view: TableView;
  version: number;
  moves: number;
}

async function playToTheEnd(
  session: Session,
  table: number,
  started: ActionResponse,
  rng: Rng,
  protocol: boolean,
  codes: Set<string>,
): Promise<GameEnd> {
  const { api } = session;
  const path = { id: table };
  let { view, version } = started;
  let moves = 0;
  const deadline = Date.now() + 300_000;
  while (view.table.status !== "finished") {
    check(Date.now() < deadline && moves < 3000, "the game did not end in time");
    check(
      view.table.version === version,
      `a view at ${view.table.version} in an answer at ${version}`,
    );
    const move = choose(view, rng);
    check(move !== undefined, `nothing legal to do at move ${moves}: ${JSON.stringify(view.legal)}`);
    const key = `move-${moves}-${randomBytes(4).toString("hex")}`;
    if (protocol && moves === 1) {
      // Based on an older version: refused, and nothing happens.
      refused(
        await api.POST("/v1/tables/{id}/actions", {
          params: {
            path,
            header: { "Idempotency-Key": `${key}-stale`, "If-Match": tag(version - 1) },
          },
          body: move,
        }),
        412,
        "precondition_failed",
        codes,
        `move ${moves} with If-Match: ${tag(version - 1)}`,
      );
    }
    const request = {
      params: { path, header: { "Idempotency-Key": key, "If-Match": tag(version) } },
      body: move,
    };
    const sent = await api.POST("/v1/tables/{id}/actions", request);
    const answer = ok(sent, 200, `move ${moves} (${JSON.stringify(move)})`);
    check(
      sent.response.headers.get("Idempotent-Replayed") === null,
      "a first answer marked replayed",
    );
    if (protocol && moves === 0) {
      // The same move again, same key: the first answer, marked as a replay.
      const resent = await api.POST("/v1/tables/{id}/actions", request);
      const replay = ok(resent, 200, `move ${moves} sent again`);
      check(
        resent.response.headers.get("Idempotent-Replayed") === "true",
        `the move sent again is not marked Idempotent-Replayed: true ` +
          `(${resent.response.headers.get("Idempotent-Replayed")})`,
      );
      check(isDeepStrictEqual(replay, answer), "the replayed answer differs from the first");
      log(`table ${table}: move ${moves} sent twice with one key: the same answer, replayed`);
    }
    count(summary.moves, kindOf(move));
    moves++;
    view = answer.view;
    version = answer.version;
  }
  if (protocol) {
    refused(
      await api.POST("/v1/tables/{id}/actions", {
        params: { path, header: { "Idempotency-Key": "too-late", "If-Match": tag(version) } },
        body: { type: "call" },
      }),
      409,
      "game_over",
      codes,
      "a move after the end",
    );
  }
  return { view, version, moves };
}

// ------------------------------------------------------------------ a tournament

async function command(
  session: Session,
  tournament: number,
  body: TournamentCommand,
): Promise<Schemas["CommandResponse"]> {
  return ok(
    await session.api.POST("/v1/tournaments/{id}/commands", {
      params: { path: { id: tournament } },
      body,
    }),
    200,
    `tournament command ${body.command}`,
  );
}

async function runATournament(server: Server, admin: string, password: string): Promise<void> {
  const organizer = await server.login(admin, password);
  const created = ok(
    await organizer.api.POST("/v1/tournaments", {
      body: { name: "TypeScript cup", rules: { preset: "belgian" }, capacity: 8 },
    }),
    201,
    "creating a tournament",
  );
  const id = created.id;
  await command(organizer, id, { command: "open_registration" });
  for (let i = 0; i < 4; i++) {
    const name = `cup-${randomBytes(4).toString("hex")}`;
    const player = await server.register(name, "cup-player-password");
    await command(player, id, { command: "register", player: player.account.id });
    await command(player, id, { command: "check_in", player: player.account.id });
  }
  await command(organizer, id, { command: "close_registration" });
  await command(organizer, id, { command: "start_qualification" });
  const draw = ok(
    await organizer.api.POST("/v1/tournaments/{id}/draws", {
      params: { path: { id } },
      body: {},
    }),
    200,
    "drawing the first round",
  );
  const [online, ...more] = draw.online_tables;
  check(
    online !== undefined && !more.length,
    `one table of four expected: ${JSON.stringify(draw.online_tables)}`,
  );
  log(`tournament ${id}: first round drawn, game table ${online.game_table}`);

  const api = server.anonymous();
  const params = { path: { id } };
  // Where an operation offers CSV beside JSON (as `format=csv` did on these two before
  // the CSV had operations of its own), its answer is typed as the object or a string:
  // these checks tell the compiler which, and are plain checks otherwise.
  const standings = ok(await api.GET("/v1/tournaments/{id}/standings", { params }), 200, "standings");
  check(typeof standings !== "string", "the standings answered as CSV");
  check(standings.standings.length === 4, "four players in the standings");
  const stages = ok(await api.GET("/v1/tournaments/{id}/stages", { params }), 200, "stages");
  check(stages.stages[0]?.rounds[0]?.tables.length === 1, "one table in the first round");
  const ranking = ok(await api.GET("/v1/tournaments/{id}/ranking", { params }), 200, "ranking");
  check(typeof ranking !== "string", "the ranking answered as CSV");
  check(ranking.id === id, `the ranking of tournament ${ranking.id}`);
  const events = ok(await api.GET("/v1/tournaments/{id}/events", { params }), 200, "events");
  check(
    events.events.some((e) => e.payload.type === "round_drawn.v1"),
    `no round_drawn.v1 among ${events.events.map((e) => e.type).join(", ")}`,
  );
  const shown = ok(await api.GET("/v1/tournaments/{id}", { params }), 200, "the tournament");
  check(shown.id === id && shown.version === draw.version, "the tournament after its draw");
  log(`tournament ${id}: draw, standings, stages, ranking and events read`);
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      spec: { type: "string" },
      "base-url": { type: "string" },
      "admin-username": { type: "string" },
      "admin-password": { type: "string" },
      seed: { type: "string", default: "1" },
    },
  });
  const spec = values.spec;
  const baseUrl = values["base-url"];
  if (spec === undefined || baseUrl === undefined) {
    log("usage: check_client.js --spec FILE --base-url URL [--admin-username U --admin-password P]");
    return 2;
  }
  const seed = Number(values.seed);
  const parsed: unknown = JSON.parse(readFileSync(spec, "utf8"));
  const server = new Server(baseUrl, problemCodes(parsed));
  const steps: [string, () => Promise<void>][] = [
    [
      "play a game against bots, with the stream, replay, refusal and 304 checks",
      () => playAGame(server, seed, { preset: "israeli", bonus: [], protocol: true }),
    ],
    [
      "play a game under the crazy_queens and waterfall bonus rules",
      () =>
        playAGame(server, seed, {
          preset: "house",
          bonus: ["crazy_queens", "waterfall"],
          protocol: false,
        }),
    ],
    [
      "play a game under the cell_division, osmosis and fifths_disease bonus rules",
      () =>
        playAGame(server, seed, {
          preset: "house",
          bonus: ["cell_division", "osmosis", "fifths_disease"],
          protocol: false,
        }),
    ],
  ];
  const admin = values["admin-username"];
  const password = values["admin-password"];
  if (admin !== undefined && password !== undefined) {
    steps.push(["run a tournament to its first draw", () => runATournament(server, admin, password)]);
  } else {
    log("no admin credentials: the tournament step is skipped");
  }
  const failed: string[] = [];
  for (const [name, step] of steps) {
    log(`step: ${name}`);
    try {
      await step();
    } catch (error) {
      log(`FAILED: ${name}: ${describe(error)}`);
      failed.push(name);
    }
  }
  const format = (counts: Map<string, number>): string =>
    [...counts].map(([key, n]) => `${key}: ${n}`).join(", ") || "none";
  console.log(`moves by kind, in all the games: ${format(summary.moves)}`);
  console.log(`stream messages read: ${format(summary.streamMessages)}; heartbeats: ${summary.heartbeats}`);
  console.log(`${steps.length - failed.length} passed, ${failed.length} failed`);
  return failed.length ? 1 : 0;
}

/** A failed check by its message; anything else with its stack, and a failed fetch
 * with its cause (the connection refused, reset, ...). */
function describe(error: unknown): string {
  if (error instanceof Failure) {
    return error.message;
  }
  if (error instanceof Error) {
    const cause = error.cause === undefined ? "" : `\n(cause: ${String(error.cause)})`;
    return (error.stack ?? error.message) + cause;
  }
  return String(error);
}

// Exits when done: an aborted stream's socket must not keep the process waiting.
main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    log(`error: ${describe(error)}`);
    process.exit(1);
  },
);
