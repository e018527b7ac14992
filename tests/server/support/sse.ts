/** An open server-sent-events response read as an EventSource would, for tests of live streams. */
export interface SseEvent {
  event: string;
  id?: string;
  data: string;
  /** When it arrived (Date.now()). */
  at: number;
}

export class Sse {
  readonly events: SseEvent[] = [];
  status = 0;
  body = '';
  closed = false;
  private readonly controller = new AbortController();

  static async open(url: string, headers: Record<string, string> = {}): Promise<Sse> {
    const sse = new Sse();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: sse.controller.signal });
    sse.status = response.status;
    if (response.status === 200 && response.body) void sse.read(response.body);
    else {
      sse.body = await response.text();
      sse.closed = true;
    }
    return sse;
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '', at: Date.now() };
          let comment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            comment = false;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event.event = text;
            else if (field === 'id') event.id = text;
            else if (field === 'data') event.data += text;
          }
          if (!comment) this.events.push(event);
        }
      }
    } catch {
      /* aborted */
    }
    this.closed = true;
  }

  messages(): { id: number; trigger: string; itemID: string; nestedID: string; item: Record<string, unknown> }[] {
    return this.events.filter((e) => e.event === 'message').map((e) => ({ id: Number(e.id), ...JSON.parse(e.data) }));
  }

  /** Waits until `predicate` holds (or the stream ends, or time runs out); returns whether it holds. */
  async until(predicate: () => boolean, timeoutMs = 8000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate() && !this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return predicate();
  }

  /** The request id of `start`, once it came. */
  async started(): Promise<string> {
    await this.until(() => this.events.some((e) => e.event === 'start'));
    const start = this.events.find((e) => e.event === 'start');
    if (!start) throw new Error(`no start: ${this.status} ${this.body}`);
    return start.data;
  }

  stop(): SseEvent | undefined {
    return this.events.find((e) => e.event === 'stop');
  }

  close() {
    this.controller.abort();
  }
}
