/** An Action.Execute as a person finds it on a card: its verb, its data and the title they click. */
export interface CardButton {
  verb: string;
  value: string;
  title: string;
  /** Inside an Action.ShowCard: the confirmation step of a destructive button. */
  confirms: string | null;
}

/** Every Action.Execute of a card, including those behind an Action.ShowCard. */
export function cardButtons(card: Record<string, any>): CardButton[] {
  const found: CardButton[] = [];
  const walk = (node: unknown, confirms: string | null): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, confirms));
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, any>;
    if (n.type === 'Action.Execute') found.push({ verb: n.verb, value: n.data?.value, title: n.title, confirms });
    if (n.type === 'Action.ShowCard') return walk(n.card, n.title);
    Object.values(n).forEach((v) => walk(v, confirms));
  };
  walk(card, null);
  return found;
}

/** The one button with this verb whose value names `findingId` (or the first with the verb). */
export function buttonOf(card: Record<string, any>, verb: string, findingId?: string): CardButton {
  const button = cardButtons(card).find((b) => b.verb === verb && (!findingId || (JSON.parse(b.value) as { f: string }).f === findingId));
  if (!button) throw new Error(`no ${verb} button${findingId ? ` for ${findingId}` : ''} on the card`);
  return button;
}

/** Plain text of every TextBlock and FactSet of a card: what a reader sees. */
export function cardText(card: Record<string, any>): string {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, any>;
    if (n.type === 'TextBlock') out.push(String(n.text));
    if (n.type === 'FactSet') n.facts.forEach((f: { title: string; value: string }) => out.push(`${f.title}: ${f.value}`));
    if (n.type === 'Action.ShowCard') return;
    Object.values(n).forEach(walk);
  };
  walk(card.body);
  return out.join('\n');
}
