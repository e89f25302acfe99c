// resin serve: placeholder until its issue lands; reports that honestly instead of pretending.
export async function command(_argv: string[]): Promise<number> {
  console.error("resin serve: not implemented yet");
  return 1;
}
