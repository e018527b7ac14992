/** Types of html-encoding-sniffer (the HTML Standard's encoding sniffing; the package ships none). */
declare module 'html-encoding-sniffer' {
  interface SniffOptions {
    xml?: boolean;
    transportLayerEncodingLabel?: string;
    defaultEncoding?: string;
  }
  /** The canonical name of the encoding of an HTML byte stream. */
  export default function htmlEncodingSniffer(bytes: Uint8Array, options?: SniffOptions): string;
}
