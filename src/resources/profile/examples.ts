import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const profileExamples = {
  whoami: {
    input: {},
    output: {
      creatorId: 'cr_oB_F6bEbDYnDjM9E',
      displayName: 'Alice',
      role: 'owner',
      agreementAccepted: true,
      key: { keyId: 'key_2kYLaDVFnWiAc9yg', scopes: ['read', 'write', 'publish'] },
      apiVersion: '2026-09-30.2',
      authoringGuideVersion: '2026-09-30.4',
      addresses: {
        api: 'http://127.0.0.1:8080/api/v1',
        mcp: 'http://127.0.0.1:8080/mcp',
        upload: 'http://127.0.0.1:8080/api/v1/media/upload',
        uploadBatch: 'http://127.0.0.1:8080/api/v1/media/upload-batch',
      },
    },
  },
  get_profile: {
    input: {},
    output: {
      creatorId: 'cr_oB_F6bEbDYnDjM9E',
      slug: 'alice',
      displayName: 'Alice',
      realName: null,
      bio: null,
      email: 'alice1@example.com',
      avatarUrl: null,
      socials: [],
      role: 'owner',
    },
  },
  update_profile: {
    input: { displayName: 'Ana Trails', realName: 'Ana Novak' },
    output: {
      creatorId: 'cr_oB_F6bEbDYnDjM9E',
      slug: 'alice',
      displayName: 'Ana Trails',
      realName: 'Ana Novak',
      bio: null,
      email: 'alice1@example.com',
      avatarUrl: null,
      socials: [],
      role: 'owner',
    },
  },
  set_profile_socials: {
    input: { socials: [{ platform: 'instagram', handle: 'anatrails', url: 'https://www.instagram.com/anatrails' }] },
    output: {
      creatorId: 'cr_oB_F6bEbDYnDjM9E',
      slug: 'alice',
      displayName: 'Ana Trails',
      realName: 'Ana Novak',
      bio: null,
      email: 'alice1@example.com',
      avatarUrl: null,
      socials: [{ platform: 'instagram', handle: 'anatrails', url: 'https://www.instagram.com/anatrails' }],
      role: 'owner',
    },
  },
} satisfies Record<string, OperationExample>;
