/** One POST for the benchmarks' client processes (list-client.ts, peer-client.ts). */
import http from 'node:http';

/** POSTs JSON text with a bearer token on a keep-alive agent; the answer's status and text. */
export function postJson(agent: http.Agent, url: string, token: string, json: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(json);
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': payload.length } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
