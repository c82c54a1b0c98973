import type { AppType } from '@aws-sdk/client-sagemaker';

/** Studio's app types, as its API spells them (the ARN has them in lower case); a type only: the face loads no SDK. */
const APP_TYPES = [
  'JupyterLab',
  'CodeEditor',
  'KernelGateway',
  'JupyterServer',
  'RStudioServerPro',
  'RSessionGateway',
  'TensorBoard',
  'Canvas',
  'DetailedProfiler',
] as const satisfies readonly AppType[];

/**
 * A Studio app as its ARN names it: arn:aws:sagemaker:<region>:<account>:app/<domain id>/<space or
 * user profile>/<app type, lower case>/<app name>. The ARN is the app's id in burnrate (the bill
 * names SageMaker resources by ARN), so a Stop clicked after a restart still finds the app.
 */
export interface StudioAppRef {
  arn: string;
  region: string;
  domainId: string;
  /** The space it runs in, or for a Studio Classic app the user profile. */
  owner: string;
  appType: AppType;
  appName: string;
}

const APP_ARN = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):\d{12}:app\/(d-[a-z0-9]+)\/([^/]+)\/([^/]+)\/([^/]+)$/;

/** The app an ARN names; undefined for any other id. */
export function studioAppRefOf(id: string): StudioAppRef | undefined {
  const match = APP_ARN.exec(id);
  if (!match) return undefined;
  const [, region, domainId, owner, type, appName] = match;
  const appType = APP_TYPES.find((t) => t.toLowerCase() === type!.toLowerCase());
  return appType ? { arn: id, region: region!, domainId: domainId!, owner: owner!, appType, appName: appName! } : undefined;
}

/** The ARN of the space an app runs in, whose tags the app's team and protection also read. */
export function spaceArnOf(app: StudioAppRef): string {
  return app.arn.replace(/:app\/.*$/, `:space/${app.domainId}/${app.owner}`);
}
