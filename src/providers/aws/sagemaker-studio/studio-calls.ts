import { ListTagsCommand, type SageMakerClient } from '@aws-sdk/client-sagemaker';
import type { BurnrateError } from '../../../domain/errors.js';
import { explainAwsError } from '../aws-errors.js';
import { classifyAwsError } from '../aws-error-kind.js';
import type { Unreadable } from './studio-idle-shutdown.js';

/** An SDK error of a SageMaker call → a BurnrateError naming the IAM action to allow (or what else to check). */
export function explainStudioError(error: unknown, permission: string, region: string): BurnrateError {
  return explainAwsError(error, { service: `SageMaker in ${region}`, permission, account: 'default credentials' });
}

/**
 * A call whose answer only adds detail (the domain's or a space's idle shutdown): denied, it is
 * unreadable and says which action to allow, and the inventory goes on; any other failure throws.
 */
export async function readOptional<T>(call: () => Promise<T>, permission: string, region: string): Promise<T | Unreadable> {
  try {
    return await call();
  } catch (error) {
    if (classifyAwsError(error).kind === 'access_denied') return { denied: permission };
    throw explainStudioError(error, permission, region);
  }
}

/**
 * The tags a Studio app is owned and protected by: its space's, overridden by its own (which carry
 * its domain's: Studio adds a domain's tags to every app it launches).
 */
export async function studioTags(
  client: SageMakerClient,
  region: string,
  appArn: string,
  spaceArn?: string,
): Promise<Record<string, string>> {
  const tags: Record<string, string> = {};
  for (const arn of spaceArn ? [spaceArn, appArn] : [appArn]) {
    let next: string | undefined;
    do {
      const page = await client
        .send(new ListTagsCommand({ ResourceArn: arn, NextToken: next }))
        .catch((error: unknown) => Promise.reject(explainStudioError(error, 'sagemaker:ListTags', region)));
      for (const tag of page.Tags ?? []) if (tag.Key !== undefined) tags[tag.Key] = tag.Value ?? '';
      next = page.NextToken;
    } while (next);
  }
  return tags;
}
