import { isEmail, type PeopleDirectory, type PeopleGroup } from './people-directory.js';

/**
 * A directory of people known by name up front (the demo organisation's): nothing to read, no
 * groups. Where the console runs beside nothing else, it names people from here.
 */
export class NamedPeople implements PeopleDirectory {
  readonly refreshedAt = null;

  constructor(private readonly names: Readonly<Record<string, string>>) {}

  nameOf(userId: string): string | undefined {
    return this.names[userId];
  }

  userOfEmail(): string | undefined {
    return undefined;
  }

  group(): undefined {
    return undefined;
  }

  isUserId(ref: string): boolean {
    return ref in this.names;
  }
}

/**
 * Groups (and emails) with their members, as another thread's directories said: what an answer
 * worker holds roles by. It names nobody and mentions nobody (answers are private, by id).
 */
export class KnownGroups implements PeopleDirectory {
  readonly refreshedAt = null;

  constructor(private readonly members: Readonly<Record<string, readonly string[]>>) {}

  nameOf(): string | undefined {
    return undefined;
  }

  userOfEmail(email: string): string | undefined {
    return this.members[email]?.[0];
  }

  group(ref: string): PeopleGroup | undefined {
    const members = isEmail(ref) ? undefined : this.members[ref];
    return members ? { id: ref, handle: ref.replace(/^@/, ''), name: ref, members } : undefined;
  }

  isUserId(): boolean {
    return false;
  }
}
