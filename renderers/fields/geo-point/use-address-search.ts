/**
 * The GeoPoint editor's address search: 380 ms after the last keystroke, from 3 characters, it
 * asks `GET /api/maps?input&sessiontoken`; picking a place (arrows and Enter, or the pointer) asks
 * `?place_id` for its coordinates and hands them to `onPlace`.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { maps } from '../../../definitions/constants.ts';
import { characterCount } from '../../../definitions/field-types/support.ts';
import { isApiError } from '../../../src/api/errors.ts';
import { newSessionToken, useMapsApi, type PlacePrediction } from '../../../src/api/maps.ts';
import { problemText, type ProblemFormat } from '../../../src/hooks/problem-text.ts';
import type { MapPoint } from '../../map/lazy-world-map.ts';
import { useFormat } from '../../messages/use-format.ts';
import { firstCharacters } from '../editor-support.ts';
import { useDebouncedValue } from '../use-debounced-value.ts';

export const errorDetail = (error: unknown, format: ProblemFormat) => (isApiError(error) ? problemText(error, format) : String(error));

export function useAddressSearch({ disabled, onPlace }: { disabled?: boolean; onPlace: (location: MapPoint, label: string) => void }) {
  const format = useFormat();
  const api = useMapsApi();
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The text of the place last picked: shown in the box, not searched again. */
  const [pickedText, setPickedText] = useState<string | null>(null);
  const [placeError, setPlaceError] = useState<string | undefined>();
  const session = useRef('');
  if (session.current === '') session.current = newSessionToken();
  const query = useDebouncedValue(term.trim(), maps.searchDebounceMs);
  const searchable = characterCount(query) >= maps.searchMinChars && query !== pickedText;
  const search = useQuery({
    queryKey: ['maps', 'autocomplete', query],
    queryFn: ({ signal }) => api.autocomplete(query, session.current, signal),
    enabled: searchable && !disabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const results: PlacePrediction[] = searchable ? (search.data ?? []) : [];
  const showList = open && results.length > 0;

  const pick = async (prediction: PlacePrediction) => {
    setOpen(false);
    setActive(-1);
    setTerm(prediction.description);
    setPickedText(prediction.description);
    setPlaceError(undefined);
    try {
      const place = await api.place(prediction.place_id, session.current);
      onPlace(place.geometry.location, place.formatted_address || prediction.description);
    } catch (failure) {
      setPlaceError(format('editor.geo.placeFailed', { detail: errorDetail(failure, format) }));
    } finally {
      // One session per pick (what session tokens mean to providers that bill by them).
      session.current = newSessionToken();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      // Enter in the box never submits the item form.
      event.preventDefault();
      if (showList && results[active]) void pick(results[active]);
    } else if (event.key === 'Escape' && showList) {
      event.preventDefault();
      setOpen(false);
    }
  };

  /** Text typed in the box: a new search, nothing picked. */
  const type = (text: string) => {
    setTerm(firstCharacters(text, maps.searchMaxChars));
    setPickedText(null);
    setPlaceError(undefined);
    setActive(-1);
    setOpen(true);
  };

  /** The point was cleared: the box empties too. */
  const reset = () => {
    setTerm('');
    setPickedText(null);
    setPlaceError(undefined);
    setOpen(false);
  };

  return { term, query, pickedText, searchable, search, results, showList, active, placeError, setOpen, pick, onKeyDown, type, reset };
}

export type AddressSearch = ReturnType<typeof useAddressSearch>;
