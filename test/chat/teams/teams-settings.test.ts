import { describe, expect, it } from 'vitest';
import { readTeamsSettings } from '../../../src/chat/teams/teams-settings.js';

const APP = '00000000-0000-4000-8000-0000000b0700';
const TENANT = '72f988bf-0000-4000-8000-000000000001';

describe('Teams settings from the environment', () => {
  it('is off without any Teams variable', () => {
    expect(readTeamsSettings({})).toBeNull();
  });

  it('is on, unauthenticated, only with BURNRATE_INSECURE_DEV=1', () => {
    expect(readTeamsSettings({ BURNRATE_INSECURE_DEV: '1' })).toEqual({ insecure: true });
    expect(readTeamsSettings({ BURNRATE_INSECURE_DEV: 'yes' })).toBeNull();
  });

  it('reads a multi-tenant bot, and a single-tenant one when a tenant is given', () => {
    expect(readTeamsSettings({ MICROSOFT_APP_ID: APP, MICROSOFT_APP_PASSWORD: 's3cret' })).toEqual({
      insecure: false,
      appId: APP,
      appType: 'MultiTenant',
      credential: { kind: 'secret', secret: 's3cret' },
      tenantId: null,
    });
    expect(readTeamsSettings({ MICROSOFT_APP_ID: APP, MICROSOFT_APP_PASSWORD: 's3cret', MICROSOFT_APP_TENANT_ID: TENANT })).toMatchObject({
      appType: 'SingleTenant',
      tenantId: TENANT,
    });
    expect(
      readTeamsSettings({ MICROSOFT_APP_ID: APP, MICROSOFT_APP_TYPE: 'userassignedmsi', MICROSOFT_APP_TENANT_ID: TENANT }),
    ).toMatchObject({ appType: 'UserAssignedMSI', credential: { kind: 'managedIdentity' } });
  });

  it("reads the Agents SDK's own names too (clientId, tenantId, clientSecret; certificate files; a federated credential)", () => {
    expect(readTeamsSettings({ clientId: APP, tenantId: TENANT, clientSecret: 's3cret' })).toEqual({
      insecure: false,
      appId: APP,
      appType: 'SingleTenant',
      credential: { kind: 'secret', secret: 's3cret' },
      tenantId: TENANT,
    });
    expect(readTeamsSettings({ CLIENTID: APP, TENANTID: TENANT, certPemFile: '/run/cert.pem', certKeyFile: '/run/key.pem' })).toMatchObject(
      {
        credential: { kind: 'certificate', certPemFile: '/run/cert.pem', certKeyFile: '/run/key.pem' },
      },
    );
    expect(readTeamsSettings({ MICROSOFT_APP_ID: APP, MICROSOFT_APP_TENANT_ID: TENANT, FICClientId: 'mi-client' })).toMatchObject({
      credential: { kind: 'federated', managedIdentityClientId: 'mi-client' },
    });
    expect(readTeamsSettings({ clientId: APP, tenantId: TENANT, authType: 'UserManagedIdentity' })).toMatchObject({
      appType: 'UserAssignedMSI',
      credential: { kind: 'managedIdentity' },
    });
    // AKS's workload identity webhook sets the token file; it counts only when no other credential is set.
    const aks = { MICROSOFT_APP_ID: APP, MICROSOFT_APP_TENANT_ID: TENANT, AZURE_FEDERATED_TOKEN_FILE: '/var/run/token' };
    expect(readTeamsSettings(aks)).toMatchObject({ credential: { kind: 'workloadIdentity', tokenFile: '/var/run/token' } });
    expect(readTeamsSettings({ ...aks, MICROSOFT_APP_PASSWORD: 's3cret' })).toMatchObject({ credential: { kind: 'secret' } });
    expect(readTeamsSettings({ AZURE_FEDERATED_TOKEN_FILE: '/var/run/token' })).toBeNull();
  });

  it.each([
    [{ MICROSOFT_APP_PASSWORD: 's3cret' }, 'MICROSOFT_APP_PASSWORD is set but MICROSOFT_APP_ID is not'],
    [{ MICROSOFT_APP_ID: APP }, 'MICROSOFT_APP_ID is set but MICROSOFT_APP_PASSWORD is not'],
    [
      { MICROSOFT_APP_ID: APP, MICROSOFT_APP_PASSWORD: 's', MICROSOFT_APP_TYPE: 'SingleTenant' },
      'MICROSOFT_APP_TYPE is SingleTenant but MICROSOFT_APP_TENANT_ID is not set',
    ],
    [{ MICROSOFT_APP_ID: APP, MICROSOFT_APP_PASSWORD: 's', MICROSOFT_APP_TYPE: 'Multi' }, 'MICROSOFT_APP_TYPE is "Multi"'],
    [{ MICROSOFT_APP_ID: APP, clientId: 'another-app', MICROSOFT_APP_PASSWORD: 's3cret' }, 'MICROSOFT_APP_ID and clientId are both set'],
    [{ clientSecret: 's3cret' }, 'clientSecret is set but MICROSOFT_APP_ID is not'],
    [
      { MICROSOFT_APP_ID: APP, MICROSOFT_APP_PASSWORD: 's3cret', FICClientId: 'mi' },
      'more than one credential is set for the bot (secret, federated)',
    ],
    [{ MICROSOFT_APP_ID: APP, certPemFile: '/run/cert.pem' }, 'certPemFile is set but certKeyFile is not'],
  ])('says what is wrong with %j, never the secret', (env, message) => {
    let caught: Error | undefined;
    try {
      readTeamsSettings(env);
    } catch (error) {
      caught = error as Error;
    }
    expect(caught?.message).toContain(message);
    expect(caught?.message).not.toContain('s3cret');
  });
});
