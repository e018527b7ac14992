/**
 * Studio's reference (docs/studio.md "Reference"): the project's generated OpenAPI document drawn
 * by swagger-ui-dist. This module is its own chunk, loaded only when the tab opens, so neither the
 * sign-in page nor the rest of the console carries swagger-ui. Calls are run in the workbench, so
 * the reference offers no "Try it out".
 */
import { useEffect, useRef } from 'react';
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import './reference.css';

export default function StudioReference({ document }: { document: Record<string, unknown> }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = host.current;
    if (!node) return undefined;
    SwaggerUIBundle({
      spec: document,
      domNode: node,
      deepLinking: false,
      supportedSubmitMethods: [],
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      // Highlighted examples are drawn with inline colours the themes cannot reach.
      syntaxHighlight: false,
    });
    return () => {
      node.replaceChildren();
    };
  }, [document]);
  return <div ref={host} className="studio-reference" data-testid="studio-reference" />;
}
