/**
 * The New Collection form's state: the collection ID follows the name,
 * slugified, until the person edits the ID by hand; from then on it is theirs. Multi and LTR are
 * the defaults.
 */
import { collectionIdProblemCode, contentLimits, slugify, type CollectionIdProblemCode } from '../../../definitions/content.ts';

export interface CollectionDraftState {
  name: string;
  id: string;
  /** The ID was typed by hand: the name no longer changes it. */
  idEdited: boolean;
  singleItem: boolean;
  rtlDirection: boolean;
}

export type CollectionDraftEvent =
  | { type: 'NAME'; name: string }
  | { type: 'ID'; id: string }
  | { type: 'SINGLE_ITEM'; singleItem: boolean }
  | { type: 'RTL'; rtlDirection: boolean };

export const initialCollectionDraft: CollectionDraftState = { name: '', id: '', idEdited: false, singleItem: false, rtlDirection: false };

export function collectionDraftReducer(state: CollectionDraftState, event: CollectionDraftEvent): CollectionDraftState {
  switch (event.type) {
    case 'NAME':
      return { ...state, name: event.name, id: state.idEdited ? state.id : slugify(event.name).slice(0, contentLimits.collectionIdMax) };
    case 'ID':
      return { ...state, id: event.id, idEdited: true };
    case 'SINGLE_ITEM':
      return { ...state, singleItem: event.singleItem };
    case 'RTL':
      return { ...state, rtlDirection: event.rtlDirection };
  }
}

/** Create Collection is enabled only with a name and a usable collection ID. */
export const canCreateCollection = (state: CollectionDraftState): boolean => state.name.trim() !== '' && collectionIdProblemCode(state.id) === undefined;

/** The message key and values explaining why an ID cannot be used, or null. */
export function collectionIdMessage(id: string): { key: `collectionId.${CollectionIdProblemCode}`; values: Record<string, string | number> } | null {
  const code = collectionIdProblemCode(id);
  if (!code) return null;
  return { key: `collectionId.${code}`, values: { max: contentLimits.collectionIdMax, suggestion: slugify(id), id } };
}
