/** Awaits a ky call and reads its JSON body; every failure becomes an ApiError. */
import { ApiError, clientErrorCodes, toApiError } from './errors.ts';

/** Resolves with the parsed body, or `undefined` for 204 and empty bodies; rejects with ApiError. */
export async function requestJson<T>(call: Promise<Response>): Promise<T> {
  let response: Response;
  try {
    response = await call;
  } catch (error) {
    throw await toApiError(error);
  }
  const text = response.status === 204 ? '' : await response.text();
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ApiError({ status: response.status, code: clientErrorCodes.invalidResponse, detail: 'The server answered with something that is not JSON.', cause: error });
  }
}
