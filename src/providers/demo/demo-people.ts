/** The demo organisation's people, by the user ids its burnrate.yml and its instances' owner tags use. */
export const DEMO_PEOPLE: Readonly<Record<string, string>> = {
  U0DEMOADMIN: 'Ada Admin',
  U0DEMOALICE: 'Alice Martin',
  U0DEMOBOB: 'Bob Okafor',
  U0DEMOCAROL: 'Carol Chen',
  U0DEMODAN: 'Dan Novak',
  U0DEMOERIN: 'Erin Silva',
  U0DEMOFRANK: 'Frank Weber',
  U0DEMOGRACE: 'Grace Iyer',
  U0DEMOHEIDI: 'Heidi Tanaka',
};
