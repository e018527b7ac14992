/**
 * The map layout of the item list on the real Leaflet map: the visible
 * area asked as a `within` box (with the list's search, filter and nested path), again after a
 * zoom with the stale request cancelled; the "zoom in" notice; markers named by their titles that
 * open their items by click and by Enter; a click on the map starting a new item with the point;
 * the Unset Markers list (paged, with the items whose place is invalid); "choose a field".
 *
 * jsdom lays nothing out: the map's container is given a size (800 × 400 px) so Leaflet's bounds
 * are those of a real view.
 */
import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type Mock } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { AuthApi } from '../../src/api/auth.ts';
import type { Collection, Item, ItemPage, ListParams } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { AuthApiProvider } from '../../src/api/queries.ts';
import MapLayout from '../../renderers/layouts/map/MapLayout.tsx';
import { inViewLng, withinBox } from '../../renderers/layouts/map/map-items.ts';
import type { LayoutProps, LayoutSettings } from '../../renderers/layouts/types.ts';
import { strictContentApi } from './support/fake-content-api.ts';

// The map and its atlas load lazily, then draw: room for a busy machine (no timing is asserted by these waits).
configure({ asyncUtilTimeout: 10_000 });

const WIDTH = 800;
const HEIGHT = 400;

beforeAll(() => {
  // Leaflet reads its size from clientWidth/clientHeight, which jsdom leaves at 0.
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('leaflet-container') ? WIDTH : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('leaflet-container') ? HEIGHT : 0;
    },
  });
});
afterAll(() => {
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
  Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const name: SchemaField = { id: 'f1', name: 'Name', slug: 'name', type: 1, primaryField: true };
const city: SchemaField = { id: 'f2', name: 'City', slug: 'city', type: 1 };
const location: SchemaField = { id: 'f3', name: 'Location', slug: 'location', type: 13 };
const metadata: SchemaField = { id: 'm', name: 'Metadata', slug: 'metadata', type: 100 };

const collectionOf = (schema: SchemaField[]): Collection => ({ id: 'trips', name: 'Trips', schema, singleItem: false, rtlDirection: false, itemCount: 3, createdDate: '2026-01-01T00:00:00.000Z' });

const item = (id: string, values: Record<string, unknown>): Item => ({ _id: id, _createdDate: '', _lastUpdatedDate: '', _order: 1, _rank: 'a', ...values });

const authApi = { config: async () => ({ consoleClient: { id: 'c', secret: 's' }, googleClientId: null, devMailbox: false, mapTiles: null }) } as unknown as AuthApi;

type Lister = (params: ListParams, signal: AbortSignal | undefined) => Promise<ItemPage> | ItemPage;

interface Lists {
  /** The markers of a view (`query` holds the within term). */
  placed?: Lister;
  /** The items with no place (`find` … `$exists: false`). */
  unset?: Lister;
  /** The first placed item (`find` … `$exists: true`). */
  first?: Lister;
}

const empty: ItemPage = { items: [], total: 0 };

function renderMap({ lists = {}, settings = { center: { lat: 45, lng: 5 } }, schema = [metadata, name, city, location], ...props }: { lists?: Lists; settings?: LayoutSettings; schema?: SchemaField[] } & Partial<LayoutProps> = {}) {
  const listItems: Mock = vi.fn(async (_scope: unknown, _collection: string, params: ListParams, options?: { signal?: AbortSignal }) => {
    if (params.query?.includes(':within:')) return (lists.placed ?? (() => empty))(params, options?.signal);
    if (params.find?.includes('"$exists":false')) return (lists.unset ?? (() => empty))(params, options?.signal);
    if (params.find?.includes('"$exists":true')) return (lists.first ?? (() => empty))(params, options?.signal);
    throw new Error(`unexpected list ${JSON.stringify(params)}`);
  });
  const api = strictContentApi({ listItems });
  const onOpenItem = vi.fn();
  const onNewItem = vi.fn();
  const onOpenSettings = vi.fn();
  const layoutProps: LayoutProps = {
    scope: { organizationID: 'org', projectID: 'proj' },
    collection: collectionOf(schema),
    settings,
    onSettingsChange: vi.fn(),
    onOpenSettings,
    baseParams: {},
    reloadKey: 0,
    canCreate: true,
    canUpdate: true,
    onOpenItem,
    onNewItem,
    ...props,
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthApiProvider value={authApi}>
        <ContentApiProvider value={api}>
          <MapLayout {...layoutProps} />
        </ContentApiProvider>
      </AuthApiProvider>
    </QueryClientProvider>,
  );
  const calls = (kind: 'within' | 'unset' | 'first') =>
    listItems.mock.calls
      .map((call) => call[2] as ListParams)
      .filter((params) => (kind === 'within' ? params.query?.includes(':within:') : params.find?.includes(kind === 'unset' ? '"$exists":false' : '"$exists":true')));
  return { ...view, listItems, calls, onOpenItem, onNewItem, onOpenSettings, queryClient };
}

const findMap = () => screen.findByRole('application', { name: 'Map of Trips' }, { timeout: 15_000 });

/** The box a 800 × 400 px Web Mercator view centred at `lat,lng` at `zoom` shows (computed here, not by Leaflet). */
function expectedBox(lat: number, lng: number, zoom: number) {
  const world = 256 * 2 ** zoom;
  const y = (phi: number) => ((1 - Math.log(Math.tan(Math.PI / 4 + (phi * Math.PI) / 360)) / Math.PI) / 2) * world;
  const latAt = (py: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * py) / world))) * 180) / Math.PI;
  const half = ((WIDTH / 2) * 360) / world;
  return { south: latAt(y(lat) + HEIGHT / 2), west: lng - half, north: latAt(y(lat) - HEIGHT / 2), east: lng + half };
}

/** Leaflet puts the view on whole pixels: a place within one pixel (at `zoom`) of where it was asked is where it was asked. */
const expectNear = (actual: number, expected: number, zoom: number) => expect(Math.abs(actual - expected)).toBeLessThan(360 / (256 * 2 ** zoom));

const boxOf = (params: ListParams) => {
  const [slug, operator, box] = params.query!.split(':');
  const [south, west, north, east] = box!.split(',').map(Number) as [number, number, number, number];
  return { slug, operator, south, west, north, east };
};

describe('the within box of a view', () => {
  it('writes minLat,minLng,maxLat,maxLng, rounded outward to 6 decimals', () => {
    expect(withinBox({ south: 40.1234567, west: -3.2000001, north: 49.5, east: 13.0000001 })).toBe('40.123456,-3.200001,49.5,13.000001');
  });

  it('crosses the antimeridian as minLng > maxLng, whichever copy of the world the view is in', () => {
    expect(withinBox({ south: -20, west: 170, north: 10, east: 190 })).toBe('-20,170,10,-170');
    expect(withinBox({ south: -20, west: -190, north: 10, east: -170 })).toBe('-20,170,10,-170');
    // A view of a later copy of the world, not crossing: brought back into −180..180.
    expect(withinBox({ south: 0, west: 370, north: 10, east: 380 })).toBe('0,10,10,20');
    // Ending exactly on the antimeridian: up to 180, not a box crossing it.
    expect(withinBox({ south: 0, west: 100, north: 10, east: 180 })).toBe('0,100,10,180');
  });

  it('draws a place in the copy of the world the view shows', () => {
    expect(inViewLng(-170, { south: 0, west: 170, north: 10, east: 190 })).toBe(190);
    expect(inViewLng(175, { south: 0, west: -190, north: 10, east: -170 })).toBe(-185);
    expect(inViewLng(5, { south: 0, west: -10, north: 10, east: 20 })).toBe(5);
    expect(inViewLng(5, null)).toBe(5);
  });

  it('asks for every longitude when the view is wider than the world, and clamps latitudes', () => {
    expect(withinBox({ south: -95, west: -400, north: 95, east: 100 })).toBe('-90,-180,90,180');
  });
});

describe('MapLayout', { timeout: 40_000 }, () => {
  it('asks for the visible area as a within box, with the list’s search, filter and nested path, at most 1000 markers', async () => {
    const baseParams = { search: 'museum', filter: '[{"key":"city","operator":"=","filterValue":"Lyon"}]', parentItemID: 'p1', nestedID: 'trips.p1.stops' };
    const { calls, listItems } = renderMap({ settings: { center: { lat: 45, lng: 5 }, titleKeys: ['city'] }, baseParams });
    await findMap();
    await waitFor(() => expect(calls('within')).toHaveLength(1));
    const params = calls('within')[0]!;
    expect(params).toMatchObject({ ...baseParams, pageNumber: 1, perPage: 1000, projectOn: 'location,city' });
    expect(params.find).toBeUndefined();
    const box = boxOf(params);
    const expected = expectedBox(45, 5, 6);
    expect(box.slug).toBe('location');
    expect(box.operator).toBe('within');
    expectNear(box.west, expected.west, 6);
    expectNear(box.east, expected.east, 6);
    expectNear(box.south, expected.south, 6);
    expectNear(box.north, expected.north, 6);
    // The box is the view's, to the microdegree (about 800 px of 16,384 at zoom 6).
    expect(box.east - box.west).toBeCloseTo(expected.east - expected.west, 5);
    // The request can be cancelled.
    const withinCall = listItems.mock.calls.find((call) => (call[2] as ListParams).query)!;
    expect(withinCall[3]).toEqual({ signal: expect.any(AbortSignal) });
    // The unset list adds to the same list parameters.
    await waitFor(() => expect(calls('unset')).toHaveLength(1));
    expect(calls('unset')[0]).toMatchObject({ ...baseParams, find: '{"location":{"$exists":false}}', pageNumber: 1, perPage: 20 });
  });

  it('asks for a box crossing the antimeridian (minLng > maxLng) when the view does, and draws its places there', async () => {
    const { calls } = renderMap({
      settings: { center: { lat: 0, lng: 179, zoom: 4 } },
      lists: { placed: () => ({ items: [item('fiji', { name: 'Suva', location: { lat: -18.1416, lng: -178.4419 } })], total: 1 }) },
    });
    const map = await findMap();
    await waitFor(() => expect(calls('within')).toHaveLength(1));
    const box = boxOf(calls('within')[0]!);
    const half = ((WIDTH / 2) * 360) / (256 * 16);
    expectNear(box.west, 179 - half, 4);
    expectNear(box.east, 179 + half - 360, 4);
    expect(box.west).toBeGreaterThan(box.east);
    // Suva (−178.44) is drawn east of the antimeridian, in the view, not a world away.
    const suva = await within(map).findByRole('button', { name: 'Suva' });
    const offset = (suva.style.transform || '').match(/translate3d\((-?[\d.]+)px/) ?? (suva.style.left ? [null, suva.style.left] : null);
    expect(offset).not.toBeNull();
    const x = parseFloat(offset![1]!);
    expect(x).toBeGreaterThan(WIDTH / 2);
    expect(x).toBeLessThan(WIDTH);
  });

  it('uses the saved zoom, and asks again once after a zoom, cancelling a request still under way', async () => {
    const signals: AbortSignal[] = [];
    let release: (() => void) | undefined;
    const { calls } = renderMap({
      settings: { center: { lat: 10, lng: 20, zoom: 4 } },
      lists: {
        placed: (_params, signal) => {
          signals.push(signal!);
          // The first view's answer never comes before the zoom: it is stale by then.
          if (signals.length === 1) return new Promise<ItemPage>((resolve) => (release = () => resolve(empty)));
          return empty;
        },
      },
    });
    const map = await findMap();
    await waitFor(() => expect(calls('within')).toHaveLength(1));
    const first = boxOf(calls('within')[0]!);
    expect(first.east - first.west).toBeCloseTo((WIDTH * 360) / (256 * 16), 4);
    // Leaflet's keyboard: + zooms in while the map has the focus.
    act(() => map.focus());
    fireEvent.focus(map);
    fireEvent.keyDown(document, { key: '+', keyCode: 187 });
    await waitFor(() => expect(calls('within')).toHaveLength(2));
    const second = boxOf(calls('within')[1]!);
    expect(second.east - second.west).toBeCloseTo((first.east - first.west) / 2, 4);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    release?.();
    // Debounced: one request per settled view, none more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls('within')).toHaveLength(2);
  });

  it('draws a marker per placed item, named by its title fields, that opens the item by click and by Enter', async () => {
    const { onOpenItem, onNewItem } = renderMap({
      settings: { center: { lat: 45, lng: 5 }, titleKeys: ['name', 'city'] },
      lists: {
        placed: () => ({
          items: [item('a1', { name: 'Food tour', city: 'Lyon', location: { lat: 45.7485, lng: 4.8467 } }), item('a2', { location: { lat: 44, lng: 6 } })],
          total: 2,
        }),
      },
    });
    const map = await findMap();
    const lyon = await within(map).findByRole('button', { name: 'Food tour · Lyon' });
    expect(lyon).toHaveAttribute('tabindex', '0');
    // No title field set: the item's id names it.
    expect(within(map).getByRole('button', { name: 'a2' })).toBeInTheDocument();
    expect(await screen.findByText('2 places in this area.')).toBeInTheDocument();
    fireEvent.click(lyon);
    expect(onOpenItem).toHaveBeenCalledWith('a1');
    // A marker's click is not the map's: no new item.
    expect(onNewItem).not.toHaveBeenCalled();
    fireEvent.keyDown(within(map).getByRole('button', { name: 'a2' }), { key: 'Enter' });
    expect(onOpenItem).toHaveBeenLastCalledWith('a2');
    expect(onNewItem).not.toHaveBeenCalled();
  });

  it('says how many of how many it shows when more items are in the view than it draws', async () => {
    renderMap({ lists: { placed: () => ({ items: [item('a1', { name: 'One', location: { lat: 45, lng: 5 } })], total: 2500 }) } });
    expect(await screen.findByText('Showing 1 of 2,500 — zoom in to see all.')).toBeInTheDocument();
  });

  it('opens a new item at the point clicked, as the GeoPoint editor stores it (4 decimals)', async () => {
    const { onNewItem } = renderMap({ settings: { center: { lat: 45, lng: 5 } } });
    const map = await findMap();
    const picked = () => (onNewItem.mock.calls.at(-1)![0] as { location: { lat: number; lng: number } }).location;
    // The centre of the 800 × 400 view is the saved centre.
    fireEvent.click(map, { clientX: WIDTH / 2, clientY: HEIGHT / 2 });
    expect(onNewItem).toHaveBeenCalledTimes(1);
    expect(Object.keys(onNewItem.mock.calls[0]![0] as object)).toEqual(['location']);
    const centre = picked();
    expectNear(centre.lat, 45, 6);
    expectNear(centre.lng, 5, 6);
    // 4 decimals, as the editor stores a point.
    expect(centre.lat).toBe(Number(centre.lat.toFixed(4)));
    expect(centre.lng).toBe(Number(centre.lng.toFixed(4)));
    // 100 px east at zoom 6.
    fireEvent.click(map, { clientX: WIDTH / 2 + 100, clientY: HEIGHT / 2 });
    expect(picked().lat).toBe(centre.lat);
    expect(picked().lng - centre.lng).toBeCloseTo((100 * 360) / (256 * 64), 3);
    expect(picked().lng).toBe(Number(picked().lng.toFixed(4)));
    // Enter on the focused map: a new item at its centre (the map's own centre: exactly the saved one).
    fireEvent.keyDown(map, { key: 'Enter' });
    expect(onNewItem).toHaveBeenCalledTimes(3);
    expect(onNewItem).toHaveBeenLastCalledWith({ location: { lat: 45, lng: 5 } });
  });

  it('starts no new item from the map when the user may not create items', async () => {
    const { onNewItem } = renderMap({ canCreate: false });
    const map = await findMap();
    fireEvent.click(map, { clientX: 10, clientY: 10 });
    fireEvent.keyDown(map, { key: 'Enter' });
    expect(onNewItem).not.toHaveBeenCalled();
    expect(map).toHaveAccessibleDescription(/Click a marker to open its item/);
  });

  it('centres on the first placed item when no centre is saved', async () => {
    const { calls } = renderMap({
      settings: {},
      baseParams: { search: 'tour' },
      lists: { first: () => ({ items: [item('a1', { location: { lat: -33.8688, lng: 151.2093 } })], total: 1 }) },
    });
    await findMap();
    expect(calls('first')[0]).toMatchObject({ search: 'tour', find: '{"location":{"$exists":true}}', perPage: 1, pageNumber: 1 });
    await waitFor(() => expect(calls('within')).toHaveLength(1));
    const box = boxOf(calls('within')[0]!);
    const expected = expectedBox(-33.8688, 151.2093, 6);
    expectNear(box.west, expected.west, 6);
    expectNear(box.north, expected.north, 6);
  });

  it('lists the items with no place a page at a time, and the items whose place is invalid; a click opens one', async () => {
    const pages: Record<number, Item[]> = {
      1: Array.from({ length: 20 }, (_, i) => item(`u${i + 1}`, { name: `Unplaced ${i + 1}` })),
      2: [item('u21', { name: 'Unplaced 21' })],
    };
    const { calls, onOpenItem } = renderMap({
      lists: {
        unset: (params) => ({ items: pages[params.pageNumber ?? 1] ?? [], total: 21 }),
        placed: () => ({
          items: [item('ok', { name: 'Placed', location: { lat: 45, lng: 5 } }), item('bad', { name: 'Broken', location: { lat: 123, lng: 5 } }), item('odd', { name: 'Odd', location: { lat: 'x', lng: 5 } })],
          total: 3,
        }),
      },
    });
    const list = await screen.findByRole('region', { name: 'Unset Markers' });
    expect(await within(list).findByRole('button', { name: 'Unplaced 1' })).toBeInTheDocument();
    expect(await within(list).findByRole('button', { name: 'Broken (invalid place)' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Odd (invalid place)' })).toBeInTheDocument();
    expect(within(list).getByText('23 items have no place.')).toBeInTheDocument();
    // Only the valid one is a marker.
    const map = await findMap();
    expect(await within(map).findByRole('button', { name: 'Placed' })).toBeInTheDocument();
    expect(within(map).queryByRole('button', { name: 'Broken' })).toBeNull();
    expect(screen.getByText('1 place in this area.')).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('button', { name: 'Broken (invalid place)' }));
    expect(onOpenItem).toHaveBeenLastCalledWith('bad');
    expect(within(list).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(within(list).getByRole('button', { name: 'Next' }));
    fireEvent.click(await within(list).findByRole('button', { name: 'Unplaced 21' }));
    expect(onOpenItem).toHaveBeenLastCalledWith('u21');
    expect(calls('unset').map((params) => params.pageNumber)).toEqual([1, 2]);
    expect(within(list).getByText('Page 2 of 2')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('says when every item has a place', async () => {
    renderMap();
    const list = await screen.findByRole('region', { name: 'Unset Markers' });
    expect(await within(list).findByText('Every item has a place.')).toBeInTheDocument();
  });

  it('shows "choose a field" when the schema has no GeoPoint field, and asks nothing', async () => {
    const { listItems, onOpenSettings } = renderMap({ schema: [metadata, name, city], settings: {} });
    expect(screen.getByRole('heading', { name: 'Choose a place field' })).toBeInTheDocument();
    expect(screen.getByText(/this collection has none yet/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Layout Settings' }));
    expect(onOpenSettings).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('application')).toBeNull();
    expect(listItems).not.toHaveBeenCalled();
  });

  it('shows "choose a field" when the setting names a field that is gone or is not a GeoPoint', () => {
    for (const activeField of ['city', 'removed']) {
      const { listItems, unmount } = renderMap({ settings: { activeField } });
      expect(screen.getByRole('heading', { name: 'Choose a place field' })).toBeInTheDocument();
      expect(screen.getByText(/no longer exists or is no longer a GeoPoint field/)).toBeInTheDocument();
      expect(listItems).not.toHaveBeenCalled();
      unmount();
    }
  });

  it('takes the first GeoPoint field when the setting names the kanban’s Option field (one record serves every layout)', async () => {
    const status: SchemaField = { id: 'f5', name: 'Status', slug: 'status', type: 7, options: [{ _id: 'o1', value: 'Open' }] };
    const { calls } = renderMap({ schema: [metadata, name, status, location], settings: { activeField: 'status', center: { lat: 0, lng: 0 } } });
    await findMap();
    await waitFor(() => expect(calls('within')).toHaveLength(1));
    expect(boxOf(calls('within')[0]!).slug).toBe('location');
  });

  it('draws the field the settings name when there are several', async () => {
    const home: SchemaField = { id: 'f4', name: 'Home', slug: 'home', type: 13 };
    const { calls } = renderMap({ schema: [metadata, name, location, home], settings: { activeField: 'home', center: { lat: 0, lng: 0 } } });
    await findMap();
    await waitFor(() => expect(calls('within')).toHaveLength(1));
    expect(boxOf(calls('within')[0]!).slug).toBe('home');
  });
});
