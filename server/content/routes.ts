/**
 * The content API of a project, under `/api/organization/{org}/project/{proj}/`:
 * collections, their schemas and fields, and items (nested ones through `nestedID`). Reading needs
 * the read permission, creating create, changing update and removing delete.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits } from '../../definitions/content.ts';
import { invalid } from './collections.ts';
import { collectionRoutes } from './collection-routes.ts';
import { fieldRoutes } from './field-routes.ts';
import { itemRoutes } from './item-routes.ts';
import { importRoutes } from './import-routes.ts';

/** A request-validation failure as content errors are: one entry per property, named by its path. */
function validationFailure(error: FastifyError) {
  const context = (error as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  const problems = (error.validation ?? []).map((v) => {
    const segments = v.instancePath
      .split('/')
      .filter(Boolean)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const params = v.params as { additionalProperty?: string; missingProperty?: string };
    if (params.additionalProperty) segments.push(params.additionalProperty);
    if (params.missingProperty) segments.push(params.missingProperty);
    const path = segments.join('.');
    return {
      path: context === 'body' ? path : [context, path].filter(Boolean).join('.'),
      message: params.additionalProperty ? 'is not a known property' : (v.message ?? 'is invalid'),
    };
  });
  return invalid(problems);
}

export async function contentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', app.requireUser);
  // Bad input is reported by path, the way item and field problems are (`{path: 'slug', …}`).
  const bodyLimit = 2 * contentLimits.itemBytesMax;
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
    // Items may be large (rich text, JSON): their own limits answer 400 naming the field, well before this.
    if (route.method !== 'GET' && route.url.includes('/item')) route.bodyLimit = bodyLimit;
  });
  app.addHook('preHandler', async (request) => {
    if (request.validationError) throw validationFailure(request.validationError as FastifyError);
  });

  await app.register(collectionRoutes);
  await app.register(fieldRoutes);
  await app.register(itemRoutes);
  await app.register(importRoutes);
}
