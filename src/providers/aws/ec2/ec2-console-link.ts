import type { ConsoleTarget, InstanceLink } from '../../../domain/instance-links.js';

const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
/** An EC2 instance's ARN, as some exports give the resource: its region is in it. */
const INSTANCE_ARN = /^arn:aws[a-z-]*:ec2:([a-z]{2}(?:-[a-z]+)+-\d):\d{12}:instance\/(i-[0-9a-f]{8,17})$/;

/** An EC2 instance by its id's shape, bare (`i-…`) or as its ARN: what the bill or an inventory names one by. */
export function isEc2Instance(id: string): boolean {
  return INSTANCE_ID.test(id) || INSTANCE_ARN.test(id);
}

/** The AWS console's page of an EC2 instance in its region; nothing for another resource or an unknown region. */
export function ec2ConsoleLink(target: ConsoleTarget): InstanceLink | undefined {
  const arn = INSTANCE_ARN.exec(target.id);
  const [region, id] = arn ? [arn[1]!, arn[2]!] : [target.region ?? '', target.id];
  if (!INSTANCE_ID.test(id) || !REGION.test(region)) return undefined;
  return {
    label: 'Open in AWS console',
    url: `https://${region}.console.aws.amazon.com/ec2/home?region=${region}#InstanceDetails:instanceId=${id}`,
  };
}
