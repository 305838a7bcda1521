export function requireNode(name: string): void;
