/**
 * The GeoPoint editor: the debounced address search (nothing under 3 characters), picking a place
 * by keyboard, coordinates shown with 4 decimals, range and half-filled errors, Clear, and the
 * real Leaflet map (lazy) taking Enter at its centre.
 */
import '@testing-library/jest-dom/vitest';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import type { AuthApi } from '../../../src/api/auth.ts';
import { ApiError } from '../../../src/api/errors.ts';
import { MapsApiProvider, type MapsApi, type PlaceDetails, type PlacePrediction } from '../../../src/api/maps.ts';
import { AuthApiProvider } from '../../../src/api/queries.ts';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { GeoPointDisplay } from '../../../renderers/fields/geo-point/Display.tsx';
import { field } from './support.tsx';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

// A search answers after the 380 ms pause and a render: room for a loaded machine (no timing is asserted by these waits).
configure({ asyncUtilTimeout: 5000 });

const location = field(13, { name: 'Location' });

const lyon: PlacePrediction = { place_id: 'city:2996944', description: 'Lyon, France' };
const lyons: PlacePrediction = { place_id: 'city:4900749', description: 'Lyons, IL, United States of America' };
const places: Record<string, PlaceDetails> = {
  'city:2996944': { place_id: 'city:2996944', name: 'Lyon', formatted_address: 'Lyon, France', geometry: { location: { lat: 45.74846, lng: 4.84671 } } },
  'city:4900749': { place_id: 'city:4900749', name: 'Lyons', formatted_address: 'Lyons, IL, United States of America', geometry: { location: { lat: 41.81, lng: -87.81 } } },
};

interface FakeMaps {
  autocomplete: Mock<MapsApi['autocomplete']>;
  place: Mock<MapsApi['place']>;
}

function fakeMaps(overrides: Partial<FakeMaps> = {}): FakeMaps {
  return {
    autocomplete: vi.fn<MapsApi['autocomplete']>(async (input) => (input.toLowerCase().startsWith('lyo') ? [lyon, lyons] : [])),
    place: vi.fn<MapsApi['place']>(async (placeId) => places[placeId]!),
    ...overrides,
  };
}

const authApi = { config: async () => ({ consoleClient: { id: 'c', secret: 's' }, googleClientId: null, devMailbox: false, mapTiles: null }) } as unknown as AuthApi;

function renderGeo(schemaField: SchemaField, { value, maps = fakeMaps() }: { value?: unknown; maps?: FakeMaps } = {}) {
  const onChange = vi.fn();
  const onProblem = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Form() {
    const [current, setCurrent] = useState<unknown>(value);
    return (
      <FieldEditor
        field={schemaField}
        value={current}
        onProblem={onProblem}
        onChange={(next) => {
          onChange(next);
          setCurrent(next);
        }}
      />
    );
  }
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthApiProvider value={authApi}>
        <MapsApiProvider value={maps}>
          <Form />
        </MapsApiProvider>
      </AuthApiProvider>
    </QueryClientProvider>,
  );
  return { ...view, maps, onChange, lastValue: () => onChange.mock.calls.at(-1)?.[0], lastProblem: () => onProblem.mock.calls.at(-1)?.[0] };
}

const latitude = () => screen.getByRole('textbox', { name: 'Latitude' });
const longitude = () => screen.getByRole('textbox', { name: 'Longitude' });

// Typed key by key: slow on a busy machine, so these get room (the debounce test asserts its timing with fake timers).
describe('GeoPoint address search', { timeout: 20_000 }, () => {
  it('asks once, 380 ms after the last keystroke, with a session token', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { maps } = renderGeo(location);
    const box = screen.getByRole('combobox', { name: 'Location' });
    act(() => box.focus());
    for (const typed of ['L', 'Ly', 'Lyo', 'Lyon']) {
      fireEvent.change(box, { target: { value: typed } });
      await act(() => vi.advanceTimersByTimeAsync(300));
    }
    expect(maps.autocomplete).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(79));
    expect(maps.autocomplete).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(maps.autocomplete).toHaveBeenCalledTimes(1);
    expect(maps.autocomplete).toHaveBeenCalledWith('Lyon', expect.stringMatching(/^[0-9a-f]{32}$/), expect.anything());
    await act(() => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();
    const list = await screen.findByRole('listbox', { name: 'Places found' });
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual(['Lyon, France', 'Lyons, IL, United States of America']);
    expect(box).toHaveAttribute('aria-expanded', 'true');
  });

  it('sends nothing under 3 characters and says why', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { maps } = renderGeo(location);
    const box = screen.getByRole('combobox', { name: 'Location' });
    fireEvent.change(box, { target: { value: 'Ly' } });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    fireEvent.change(box, { target: { value: '  Ly  ' } });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(maps.autocomplete).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('Type at least 3 characters to search.');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('picks a place by keyboard: its coordinates to 4 decimals, said aloud', async () => {
    const user = userEvent.setup();
    const { maps, lastValue } = renderGeo(location);
    const box = screen.getByRole('combobox', { name: 'Location' });
    await user.type(box, 'lyon');
    await screen.findByRole('option', { name: 'Lyon, France' });
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'Lyon, France' }).id);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastValue()).toEqual({ lat: 45.7485, lng: 4.8467 }));
    expect(maps.place).toHaveBeenCalledWith('city:2996944', expect.stringMatching(/^[0-9a-f]{32}$/));
    // The pick's session token is the search's; the next pick gets a new one.
    expect(maps.place.mock.calls[0]![1]).toBe(maps.autocomplete.mock.calls.at(-1)![1]);
    expect(latitude()).toHaveValue('45.7485');
    expect(longitude()).toHaveValue('4.8467');
    expect(box).toHaveValue('Lyon, France');
    expect(screen.getByRole('status')).toHaveTextContent('Point set to Lyon, France: 45.7485, 4.8467.');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // The picked text is not searched again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(maps.autocomplete.mock.calls.every(([input]) => input !== 'Lyon, France')).toBe(true);
  });

  it('says when nothing matches, and when the search or the place fails', async () => {
    const user = userEvent.setup();
    const failing = fakeMaps({
      autocomplete: vi.fn<MapsApi['autocomplete']>(async (input) => {
        if (input === 'boom') throw new ApiError({ status: 503, code: 'geocoder_unavailable', detail: 'The geocoding service could not be reached.' });
        return input.startsWith('lyo') ? [lyon] : [];
      }),
      place: vi.fn<MapsApi['place']>(async () => {
        throw new ApiError({ status: 404, code: 'place_not_found', detail: 'No place has this place_id.' });
      }),
    });
    const { lastValue } = renderGeo(location, { maps: failing });
    const box = screen.getByRole('combobox', { name: 'Location' });
    await user.type(box, 'zzz');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('No places found'));
    await user.clear(box);
    await user.type(box, 'boom');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('The address search failed: The address search is not available right now. Try again in a moment.'));
    await user.clear(box);
    await user.type(box, 'lyo');
    await user.click(await screen.findByRole('option', { name: 'Lyon, France' }));
    expect(await screen.findByText('Could not get this place: No place has this place_id.')).toBeInTheDocument();
    expect(lastValue()).toBeUndefined();
  });
});

describe('GeoPoint coordinates', { timeout: 20_000 }, () => {
  it('shows a value with 4 decimals, in the editor and the display', () => {
    renderGeo(location, { value: { lat: 1.5, lng: -70.123456 } });
    expect(latitude()).toHaveValue('1.5000');
    expect(longitude()).toHaveValue('-70.1235');
    cleanup();
    render(<GeoPointDisplay field={location} value={{ lat: 1.5, lng: -70.123456 }} />);
    expect(screen.getByText('1.5000, -70.1235')).toBeInTheDocument();
  });

  it('refuses coordinates out of range and half-filled points, holding them back', async () => {
    const user = userEvent.setup();
    const { lastValue, lastProblem, onChange } = renderGeo(location);
    await user.type(latitude(), '91');
    expect(screen.getByText(/Latitude must be a number from -90 to 90\./)).toBeInTheDocument();
    expect(latitude()).toHaveAttribute('aria-invalid', 'true');
    expect(lastProblem()).toBe('Latitude must be a number from -90 to 90.');
    await user.clear(latitude());
    await user.type(latitude(), '-45.5');
    expect(lastProblem()).toBe('Enter both latitude and longitude, or clear the point.');
    expect(screen.getByText(/Enter both latitude and longitude/)).toBeInTheDocument();
    await user.click(longitude());
    await user.paste('-180.5');
    expect(lastProblem()).toBe('Longitude must be a number from -180 to 180.');
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(longitude());
    await user.type(longitude(), '120.123456');
    expect(lastValue()).toEqual({ lat: -45.5, lng: 120.1235 });
    expect(lastProblem()).toBeUndefined();
    expect(screen.queryByText(/must be a number/)).not.toBeInTheDocument();
    // Leaving the field shows the point with 4 decimals.
    await user.tab();
    expect(latitude()).toHaveValue('-45.5000');
    expect(longitude()).toHaveValue('120.1235');
    // Letters never get in.
    await user.type(latitude(), 'x');
    expect(latitude()).toHaveValue('-45.5000');
    expect(screen.getByText(/Latitude must be a number/)).toBeInTheDocument();
  });

  it('clears the point, the search and every error', async () => {
    const user = userEvent.setup();
    const { lastValue, lastProblem } = renderGeo(location, { value: { lat: 45.7485, lng: 4.8467 } });
    await user.clear(longitude());
    expect(lastProblem()).toBe('Enter both latitude and longitude, or clear the point.');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(lastValue()).toBeNull();
    expect(lastProblem()).toBeUndefined();
    expect(latitude()).toHaveValue('');
    expect(longitude()).toHaveValue('');
    expect(screen.queryByText(/Enter both/)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Point cleared.');
    expect(screen.getByRole('button', { name: 'Clear' })).toBeDisabled();
  });
});

describe('GeoPoint map', { timeout: 20_000 }, () => {
  it('loads the map lazily, named and described, and Enter sets the point at its centre', async () => {
    const { lastValue } = renderGeo(location, { value: { lat: 48.8566, lng: 2.3522 } });
    const map = await screen.findByRole('application', { name: 'Map of Location' }, { timeout: 10_000 });
    expect(map).toHaveAccessibleDescription(/Enter sets the point at the centre/);
    expect(map).toHaveAttribute('tabindex', '0');
    // The base layer is the offline atlas: no tile image anywhere.
    expect(map.querySelector('img.leaflet-tile')).toBeNull();
    expect(map.querySelectorAll('path.world-map-country').length).toBeGreaterThan(100);
    expect(map.querySelector('path.world-map-point')).not.toBeNull();
    await userEvent.setup().clear(latitude());
    fireEvent.keyDown(map, { key: 'Enter' });
    expect(lastValue()).toEqual({ lat: 48.8566, lng: 2.3522 });
    expect(latitude()).toHaveValue('48.8566');
    expect(screen.getByRole('status')).toHaveTextContent('Point set to 48.8566, 2.3522.');
  });

  it('sets the point where the map is clicked', async () => {
    const { lastValue } = renderGeo(location, { value: { lat: 10, lng: 20 } });
    const map = await screen.findByRole('application', { name: 'Map of Location' }, { timeout: 10_000 });
    // jsdom lays nothing out: the map is 0×0 px, its centre at the container's corner, east to the right.
    fireEvent.click(map, { clientX: 0, clientY: 0 });
    const centre = lastValue() as { lat: number; lng: number };
    expect(centre.lat).toBeCloseTo(10, 1);
    expect(centre.lng).toBeCloseTo(20, 1);
    fireEvent.click(map, { clientX: 100, clientY: 0 });
    const east = lastValue() as { lat: number; lng: number };
    expect(east.lat).toBe(centre.lat);
    expect(east.lng).toBeGreaterThan(21);
    expect(latitude()).toHaveValue(centre.lat.toFixed(4));
    expect(longitude()).toHaveValue(east.lng.toFixed(4));
  });
});
