import type { StopWording } from '../../../domain/stop-wording.js';
import { studioAppRefOf } from './studio-app-arn.js';

/** What Stop does to a Studio app, said in its confirmation: Studio apps are deleted, never stopped. */
export function studioStopWording(instanceId: string): StopWording | undefined {
  return studioAppRefOf(instanceId)
    ? {
        verb: 'deletes SageMaker Studio app',
        why: 'Studio apps are deleted, not stopped, as its own idle shutdown does; its storage stays and its owner starts the app again from Studio',
      }
    : undefined;
}
