import { describe, expect, it } from 'vitest';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { DEMO_AZURE_VMS, demoAzureVmId } from '../../../src/providers/demo/demo-azure.js';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import { findingOf, gpuDemo, press } from '../../support/gpu-demo.js';

/** Owns vision in the demo organisation. */
const GRACE = 'U0DEMOGRACE';

describe('the demo organisation on Azure', () => {
  it('alerts vision for its idle Azure VM, keyed as the Azure inventory keys it, with a Stop that deallocates', async () => {
    const { deps, chat, port } = gpuDemo((config) => {
      config.actions.enabled = true;
    });
    const vm = DEMO_AZURE_VMS.find((v) => v.name === 'cv-label-t4')!;
    const inventory = (await deps.gpu!.inventory()).instances;
    const listed = inventory.filter((i) => i.provider === 'azure');
    expect(listed.map((i) => i.instanceId).sort()).toEqual(DEMO_AZURE_VMS.map(demoAzureVmId).sort());
    expect(listed.find((i) => i.name === vm.name)).toMatchObject({
      team: 'vision',
      instanceType: 'Standard_NC4as_T4_v3',
      hourlyPrice: loadPriceCatalog().priceOf('azure', vm.instanceType, vm.region)!.onDemandHourly,
    });

    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const alert = chat.posted.find((p) => p.address === '#vision' && renderPlainText(p.message).includes(vm.name))!.message;
    expect(JSON.stringify(alert)).toContain(`This deallocates Azure VM ${vm.name}`);

    await press(deps, GRACE, 'instance.stop', await findingOf(deps, vm.name));
    expect(port.stopped).toContain(demoAzureVmId(vm));
  });
});
