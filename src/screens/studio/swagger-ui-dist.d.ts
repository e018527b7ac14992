/** The ES bundle of swagger-ui-dist (its own React inside), which ships no types. */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerUIOptions {
    spec?: Record<string, unknown>;
    domNode?: HTMLElement;
    deepLinking?: boolean;
    supportedSubmitMethods?: string[];
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    defaultModelExpandDepth?: number;
    tryItOutEnabled?: boolean;
    syntaxHighlight?: false | { activated?: boolean; theme?: string };
  }
  const SwaggerUIBundle: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUIBundle;
}
