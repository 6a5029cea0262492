import { describe, expect, it } from 'vitest';
import { createApp, type Paginated, type Query } from 'plume';
import { AdapterBase, VALIDATED, coerceQuery, filterQuery, type AdapterParams } from 'plume/adapter';

type Item = { id: number; name: string; age?: number };

/** A minimal in-memory adapter recording what the raw methods receive. */
class MemoryService extends AdapterBase<
  Item,
  Partial<Item>,
  AdapterParams,
  ConstructorParameters<typeof AdapterBase>[0],
  number
> {
  calls: { method: string; query: Query | undefined }[] = [];
  items: Item[] = [{ id: 1, name: 'a', age: 30 }];

  async _find(params: AdapterParams = {}): Promise<Item[] | Paginated<Item>> {
    this.calls.push({ method: 'find', query: params.query });
    const { paginate } = this.getOptions(params);
    const { filters } = filterQuery(params.query, { operators: 'all', paginate });
    if (paginate) return { total: this.items.length, limit: filters.$limit ?? 0, skip: 0, data: this.items };
    return this.items;
  }
  async _get(_id: number, params: AdapterParams = {}): Promise<Item> {
    this.calls.push({ method: 'get', query: params.query });
    return this.items[0]!;
  }
  async _create(data: Partial<Item> | Partial<Item>[], params: AdapterParams = {}): Promise<Item | Item[]> {
    this.calls.push({ method: 'create', query: params.query });
    return Array.isArray(data) ? (data as Item[]) : (data as Item);
  }
  async _update(_id: number, data: Partial<Item>, params: AdapterParams = {}): Promise<Item> {
    this.calls.push({ method: 'update', query: params.query });
    return data as Item;
  }
  async _patch(_id: number | null, data: Partial<Item>, params: AdapterParams = {}): Promise<Item> {
    this.calls.push({ method: 'patch', query: params.query });
    return data as Item;
  }
  async _remove(_id: number | null, params: AdapterParams = {}): Promise<Item> {
    this.calls.push({ method: 'remove', query: params.query });
    return this.items[0]!;
  }
}

describe('AdapterBase', () => {
  it('rejects unknown operators from a client query with 400 before the raw method runs', async () => {
    const service = new MemoryService({});
    await expect(service.find({ query: { name: { $regex: 'a' } } })).rejects.toMatchObject({ code: 400 });
    await expect(service.get(1, { query: { $where: 'true' } })).rejects.toMatchObject({ code: 400 });
    expect(service.calls).toEqual([]);
  });

  it('lets the allow-list through and converts strings with the converter option', async () => {
    const service = new MemoryService({ operators: ['$regex'], converter: coerceQuery({ age: 'number' }) });
    await service.find({ query: { name: { $regex: 'a' }, age: { $gt: '20' }, $limit: '2' } });
    expect(service.calls[0]?.query).toEqual({ name: { $regex: 'a' }, age: { $gt: 20 }, $limit: 2 });
  });

  it('returns a query carrying the VALIDATED marker unchanged', async () => {
    const service = new MemoryService({});
    const query = { name: { $custom: 1 }, [VALIDATED]: true };
    expect(await service.sanitizeQuery({ query })).toBe(query);
  });

  it('multi off: create with an array, patch and remove with id null answer 405', async () => {
    const service = new MemoryService({});
    await expect(service.create([{ name: 'x' }])).rejects.toMatchObject({
      code: 405,
      message: 'Can not create multiple entries',
    });
    await expect(service.patch(null, { name: 'x' })).rejects.toMatchObject({
      code: 405,
      message: 'Can not patch multiple entries',
    });
    await expect(service.remove(null)).rejects.toMatchObject({
      code: 405,
      message: 'Can not remove multiple entries',
    });
  });

  it('multi as a method list allows only the listed methods', async () => {
    const service = new MemoryService({ multi: ['remove'] });
    expect(service.allowsMulti('remove')).toBe(true);
    expect(service.allowsMulti('patch')).toBe(false);
    expect(service.allowsMulti('find')).toBe(true);
    expect(service.allowsMulti('update')).toBe(false);
    await expect(service.remove(null)).resolves.toBeDefined();
    await expect(service.patch(null, {})).rejects.toMatchObject({ code: 405 });
  });

  it('params.adapter overrides multi and paginate for one call; params.paginate: false disables pagination', async () => {
    const service = new MemoryService({ paginate: { default: 5 } });
    await expect(service.create([{ name: 'x' }], { adapter: { multi: true } })).resolves.toEqual([
      { name: 'x' },
    ]);
    expect(await service.find()).toMatchObject({ total: 1, limit: 5 });
    expect(await service.find({ adapter: { paginate: { default: 2 } } })).toMatchObject({ limit: 2 });
    expect(await service.find({ paginate: false })).toEqual(service.items);
    expect(await service.find({ adapter: { paginate: false } })).toEqual(service.items);
  });

  it('every public method uses an overridden, asynchronous sanitizeQuery', async () => {
    // The base class's own sanitizeQuery is applied without a promise; an override must still run.
    class Restricted extends MemoryService {
      override async sanitizeQuery(params: AdapterParams = {}): Promise<Query> {
        await Promise.resolve();
        if (params.query?.secret !== undefined) throw new Error('no secrets');
        return { ...(await super.sanitizeQuery(params)), tenant: 't1' };
      }
    }
    const service = new Restricted({ multi: true });
    await service.find({ query: { name: 'a' } });
    await service.get(1);
    await service.create({ name: 'x' });
    await service.update(1, { name: 'x' });
    await service.patch(1, {}, { query: { $limit: 3 } });
    await service.remove(1);
    expect(service.calls).toEqual([
      { method: 'find', query: { name: 'a', tenant: 't1' } },
      { method: 'get', query: { tenant: 't1' } },
      { method: 'create', query: { tenant: 't1' } },
      { method: 'update', query: { tenant: 't1' } },
      { method: 'patch', query: { tenant: 't1' } },
      { method: 'remove', query: { tenant: 't1' } },
    ]);
    await expect(service.get(1, { query: { secret: 1 } })).rejects.toThrow('no secrets');
  });

  it('a query without keys: filterQuery gives the page size of paginate and nothing else', async () => {
    // sanitizeQuery validates only; the page size is the raw methods' business (filterQuery with paginate).
    const service = new MemoryService({ paginate: { default: 5, max: 10 } });
    expect(await service.sanitizeQuery({ query: {} })).toEqual({});
    expect(await service.sanitizeQuery({})).toEqual({});
    expect(filterQuery({}, { paginate: { default: 5, max: 10 } })).toEqual({
      filters: { $limit: 5 },
      query: {},
    });
    expect(filterQuery({}, { paginate: { max: 10 } })).toEqual({ filters: { $limit: 10 }, query: {} });
    expect(filterQuery(undefined)).toEqual({ filters: {}, query: {} });
    // Each call gets objects of its own: a raw method may add to them.
    const first = filterQuery({});
    first.query.added = 1;
    expect(filterQuery({}).query).toEqual({});
  });

  it('rejects, never throws, when the query is invalid', () => {
    const service = new MemoryService({});
    // A synchronous throw would escape `service.get(...).catch(...)`.
    const pending = service.get(1, { query: { $where: 'true' } });
    expect(pending).toBeInstanceOf(Promise);
    return expect(pending).rejects.toMatchObject({ code: 400 });
  });

  it('update with id null is a 400', async () => {
    const service = new MemoryService({});
    await expect(service.update(null, { name: 'x' })).rejects.toMatchObject({
      code: 400,
    });
  });

  it('patch and remove drop $limit from the query', async () => {
    const service = new MemoryService({ multi: true });
    await service.patch(null, {}, { query: { $limit: 1, name: 'a' } });
    expect(service.calls[0]?.query).toEqual({ name: 'a' });
  });

  it('runs through hooks and emits events when registered with app.use', async () => {
    const app = createApp();
    app.use('items', new MemoryService({}));
    const created: unknown[] = [];
    app.service('items').on('created', (item) => created.push(item));
    await app.service('items').create({ name: 'new' });
    expect(created).toEqual([{ name: 'new' }]);
  });
});

describe('AdapterBase typing', () => {
  it('find with paginate: false is typed as a plain array', async () => {
    const service = new MemoryService({ paginate: { default: 5 } });
    const items: Item[] = await service.find({ paginate: false });
    expect(items.map((item) => item.name)).toEqual(['a']);
  });
});
