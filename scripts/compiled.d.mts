export function freshEntry(name: string): string | undefined;
export function compiledEntry(name: string): Promise<string>;
