import type { Block, Button, Message } from './message.js';

export interface TeamPickerData {
  /** How people name the instance. */
  instance: string;
  /** The teams to offer, in order. */
  teams: { id: string; name: string }[];
  /** The button's action id and value for a team. */
  button: (team: string) => Pick<Button, 'action' | 'value'>;
}

/** Buttons per row: Slack takes 25 in a block, but a row of five stays readable on a phone. */
const PER_ROW = 5;

/** "Whose is it?": one button per team, shown privately to the person who said "Not ours". */
export function teamPicker(data: TeamPickerData): Message {
  const blocks: Block[] = [
    { type: 'text', text: `Which team owns **${data.instance}**? burnrate hands its idle alert to them and routes it there from now on.` },
  ];
  for (let i = 0; i < data.teams.length; i += PER_ROW) {
    blocks.push({
      type: 'actions',
      buttons: data.teams.slice(i, i + PER_ROW).map((t) => ({ ...data.button(t.id), label: t.name.slice(0, 75) })),
    });
  }
  if (data.teams.length === 0) blocks.push({ type: 'context', text: 'There is no other team in burnrate.yml to hand it to.' });
  return { summary: `Which team owns ${data.instance}?`, blocks };
}
