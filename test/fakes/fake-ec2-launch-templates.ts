import { randomUUID } from 'node:crypto';

/** A launch template as the fake keeps it: its versions, numbered from 1, and which is the default. */
export interface FakeLaunchTemplate {
  id: string;
  name?: string;
  /** Each version's data; `spot` is whether it requests spot capacity (InstanceMarketOptions.MarketType=spot). */
  versions: { instanceType: string; spot: boolean; description?: string }[];
  defaultVersion: number;
}

/** What a launch-template call answers: an XML body or an EC2 error. */
export type LaunchTemplateAnswer = { xml: string } | { status: number; code: string; message: string };

export const LAUNCH_TEMPLATE_ACTIONS = ['DescribeLaunchTemplateVersions', 'CreateLaunchTemplateVersion', 'ModifyLaunchTemplate'] as const;

/**
 * EC2's launch templates for FakeEc2, as the query protocol carries them: `LaunchTemplateId`,
 * `LaunchTemplateVersion.N` ($Default, $Latest or a number) for DescribeLaunchTemplateVersions,
 * `SourceVersion` and `LaunchTemplateData.InstanceMarketOptions.MarketType` for
 * CreateLaunchTemplateVersion, `SetDefaultVersion` for ModifyLaunchTemplate. Answers follow
 * EC2's XML shapes (launchTemplateVersionSet, launchTemplateVersion, launchTemplate) and errors
 * (InvalidLaunchTemplateId.NotFound / .Malformed / .VersionNotFound).
 */
export class FakeLaunchTemplates {
  private readonly templates = new Map<string, FakeLaunchTemplate>();

  constructor(templates: readonly FakeLaunchTemplate[]) {
    for (const t of templates) this.templates.set(t.id, { ...t, versions: t.versions.map((v) => ({ ...v })) });
  }

  get(id: string): FakeLaunchTemplate | undefined {
    return this.templates.get(id);
  }

  answer(action: string, params: Record<string, string>, xmlns: string): LaunchTemplateAnswer {
    const id = params.LaunchTemplateId ?? '';
    if (!/^lt-[0-9a-f]{17}$/.test(id))
      return { status: 400, code: 'InvalidLaunchTemplateId.Malformed', message: `The launch template ID '${id}' is malformed.` };
    const template = this.templates.get(id);
    if (!template)
      return {
        status: 400,
        code: 'InvalidLaunchTemplateId.NotFound',
        message: `The specified launch template, with template ID ${id}, does not exist.`,
      };
    const requestId = `<requestId>${randomUUID()}</requestId>`;
    switch (action) {
      case 'DescribeLaunchTemplateVersions': {
        const wanted = Object.keys(params)
          .filter((k) => /^LaunchTemplateVersion\.\d+$/.test(k))
          .map((k) => params[k]!);
        const numbers = (wanted.length > 0 ? wanted : template.versions.map((_, i) => String(i + 1))).map((v) => resolve(template, v));
        if (numbers.some((n) => n === null)) return versionNotFound(template, wanted.join(', '));
        const items = numbers.map((n) => `<item>${versionXml(template, n!)}</item>`).join('');
        return {
          xml: `<DescribeLaunchTemplateVersionsResponse xmlns="${xmlns}">${requestId}<launchTemplateVersionSet>${items}</launchTemplateVersionSet></DescribeLaunchTemplateVersionsResponse>`,
        };
      }
      case 'CreateLaunchTemplateVersion': {
        const source = resolve(template, params.SourceVersion ?? '$Latest');
        if (source === null) return versionNotFound(template, params.SourceVersion ?? '');
        const base = template.versions[source - 1]!;
        const market = params['LaunchTemplateData.InstanceMarketOptions.MarketType'];
        template.versions.push({
          instanceType: params['LaunchTemplateData.InstanceType'] ?? base.instanceType,
          spot: market === undefined ? base.spot : market === 'spot',
          ...(params.VersionDescription ? { description: params.VersionDescription } : {}),
        });
        return {
          xml: `<CreateLaunchTemplateVersionResponse xmlns="${xmlns}">${requestId}<launchTemplateVersion>${versionXml(template, template.versions.length)}</launchTemplateVersion></CreateLaunchTemplateVersionResponse>`,
        };
      }
      case 'ModifyLaunchTemplate': {
        const target = resolve(template, params.SetDefaultVersion ?? '');
        if (target === null) return versionNotFound(template, params.SetDefaultVersion ?? '');
        template.defaultVersion = target;
        return {
          xml:
            `<ModifyLaunchTemplateResponse xmlns="${xmlns}">${requestId}<launchTemplate><launchTemplateId>${template.id}</launchTemplateId>` +
            `<launchTemplateName>${template.name ?? template.id}</launchTemplateName><defaultVersionNumber>${template.defaultVersion}</defaultVersionNumber>` +
            `<latestVersionNumber>${template.versions.length}</latestVersionNumber></launchTemplate></ModifyLaunchTemplateResponse>`,
        };
      }
      default:
        return { status: 400, code: 'InvalidAction', message: `Unexpected action ${action}` };
    }
  }
}

function resolve(template: FakeLaunchTemplate, version: string): number | null {
  const n = version === '$Default' ? template.defaultVersion : version === '$Latest' ? template.versions.length : Number(version);
  return Number.isInteger(n) && n >= 1 && n <= template.versions.length ? n : null;
}

function versionNotFound(template: FakeLaunchTemplate, version: string): LaunchTemplateAnswer {
  return {
    status: 400,
    code: 'InvalidLaunchTemplateId.VersionNotFound',
    message: `Could not find launch template version ${version} for launch template ${template.id}.`,
  };
}

function versionXml(template: FakeLaunchTemplate, n: number): string {
  const v = template.versions[n - 1]!;
  return (
    `<launchTemplateId>${template.id}</launchTemplateId><launchTemplateName>${template.name ?? template.id}</launchTemplateName>` +
    `<versionNumber>${n}</versionNumber>${v.description ? `<versionDescription>${v.description.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</versionDescription>` : ''}` +
    `<defaultVersion>${n === template.defaultVersion}</defaultVersion><launchTemplateData><instanceType>${v.instanceType}</instanceType>` +
    `${v.spot ? '<instanceMarketOptions><marketType>spot</marketType><spotOptions><spotInstanceType>one-time</spotInstanceType></spotOptions></instanceMarketOptions>' : ''}</launchTemplateData>`
  );
}
