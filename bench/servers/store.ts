/**
 * The tiny in-memory "messages" service every benchmark server exposes, so they all do the same work:
 * `list()` → 10 records, `get(id)` → one record or `undefined`, `create(data)` → the record with a new id.
 * Created records are not kept, so the list and memory stay the same size however long a run lasts.
 */
export interface Message {
  id: number;
  text: string;
  userId: number;
  createdAt: number;
}

const records: Message[] = Array.from({ length: 10 }, (_, i) => ({
  id: i + 1,
  text: `message number ${i + 1}`,
  userId: (i % 3) + 1,
  createdAt: 1_700_000_000_000 + i * 1000,
}));
const byId = new Map(records.map((record) => [record.id, record]));
let nextId = 11;

export function list(): Message[] {
  return records;
}

export function get(id: string | number): Message | undefined {
  return byId.get(Number(id));
}

export function create(data: unknown): Message {
  const body = (typeof data === 'object' && data !== null ? data : {}) as Partial<Message>;
  return {
    text: String(body.text ?? ''),
    userId: Number(body.userId ?? 0),
    createdAt: Date.now(),
    id: nextId++,
  };
}

/** The same three operations as a plume/Feathers service class; `notFound` makes the framework's 404 error. */
export class MessageService {
  constructor(private readonly notFound: (message: string) => Error) {}

  async find(): Promise<Message[]> {
    return list();
  }
  async get(id: string | number): Promise<Message> {
    const found = get(id);
    if (found === undefined) throw this.notFound(`No record for id '${String(id)}'`);
    return found;
  }
  async create(data: unknown): Promise<Message> {
    return create(data);
  }
}

/** The port to listen on (argv[2], default 0 = any free one); servers print `LISTENING <port>` when ready. */
export function portArgument(): number {
  return Number(process.argv[2] ?? 0);
}

export function announce(address: unknown): void {
  // A normal exit on SIGTERM lets `--cpu-prof` write its profile.
  process.once('SIGTERM', () => process.exit(0));
  const port = typeof address === 'object' && address !== null ? (address as { port: number }).port : address;
  console.log(`LISTENING ${String(port)}`);
}
