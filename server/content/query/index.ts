/**
 * The list query engine: parameters parsed and
 * checked against the schema, compiled to SQL on the collection's tables, run with a timeout.
 * The console's API and the public API both use it.
 */
export { parseListQuery, parseSearch, listLimits, type ListQuery, type RawListParams } from './parse.ts';
export { compileListQuery, compileCond, pageStatement, countStatement, type CompiledList } from './compile.ts';
export { resolveSearchWords } from './search-words.ts';
export { runList, resolveNestedList, guarded, ItemQueryService, type ListAddress, type ListResult } from './engine.ts';
export { queryError, type QueryErrorCode } from './errors.ts';
