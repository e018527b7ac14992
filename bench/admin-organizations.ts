export async function run(_args: string[]): Promise<number> {
  console.log('not built yet');
  return 1;
}
