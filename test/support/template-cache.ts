/** The variable naming the folder where a run keeps the stack templates it synthesized (`test/infra/template.ts`). */
export const TEMPLATE_CACHE_DIR = 'TEMPLATE_CACHE_DIR';
