// The command-line sign-in page's rules (src/cli/shared.js): permission labels from the
// server's catalog, the first choices of the approval form, the code as typed, the place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPermissions, formatAddress, formatPlace, initialChoices, normalizeUserCode,
  permissionLabel, unavailablePermissions } from '../src/cli/shared.js';

test('a permission reads as its description from the catalog the server sent', () => {
  const catalog = [{ name: 'analytics.view', description: 'Read web and product analytics.' }];
  assert.equal(permissionLabel('analytics.view', catalog), 'Read web and product analytics');
  assert.equal(permissionLabel('some.new_permission', catalog), 'some.new_permission');
  assert.equal(permissionLabel('analytics.view'), 'analytics.view');
});

test('the ticked permissions: the requested ones the role allows, else all it allows', () => {
  const allowed = ['organization.view', 'project.view', 'analytics.view', 'bots.view'];
  assert.deepEqual(defaultPermissions(['bots.view', 'analytics.view', 'member.invite'], allowed), ['analytics.view', 'bots.view']);
  assert.deepEqual(defaultPermissions([], allowed), allowed);
  assert.deepEqual(defaultPermissions(undefined, allowed), allowed);
  assert.deepEqual(defaultPermissions(['member.invite'], allowed), []);
  assert.deepEqual(unavailablePermissions(['bots.view', 'member.invite'], allowed), ['member.invite']);
});

test('the first organization and project: the requested project, else the last used, else the first', () => {
  const organizations = [
    { slug: 'acme', name: 'Acme', role: 'owner', permissions: ['analytics.view', 'project.manage'], projects: [{ id: 'p1', name: 'Shop' }, { id: 'p2', name: 'Blog' }] },
    { slug: 'beta', name: 'Beta', role: 'analyst', permissions: ['analytics.view'], projects: [{ id: 'p3', name: 'Docs' }] },
    { slug: 'empty', name: 'Empty', role: 'admin', permissions: ['analytics.view'], projects: [] },
  ];
  const request = { organizations, requestedPermissions: [], requestedProjectId: null };
  assert.deepEqual(initialChoices(request, null), { org: 'acme', projectId: 'p1', permissions: ['analytics.view', 'project.manage'] });
  assert.deepEqual(initialChoices(request, { org: 'acme', projectId: 'p2' }), { org: 'acme', projectId: 'p2', permissions: ['analytics.view', 'project.manage'] });
  assert.deepEqual(initialChoices(request, { org: 'beta', projectId: 'gone' }), { org: 'beta', projectId: 'p3', permissions: ['analytics.view'] });
  const asking = { organizations, requestedPermissions: ['project.manage'], requestedProjectId: 'p3' };
  assert.deepEqual(initialChoices(asking, { org: 'acme', projectId: 'p2' }), { org: 'beta', projectId: 'p3', permissions: [] });
  // Switching organization: its requested, remembered or first project; the defaults there.
  assert.deepEqual(initialChoices(asking, { org: 'acme', projectId: 'p2' }, 'acme'), { org: 'acme', projectId: 'p2', permissions: ['project.manage'] });
  assert.deepEqual(initialChoices(asking, null, 'empty'), { org: 'empty', projectId: '', permissions: [] });
  assert.deepEqual(initialChoices({ organizations: [] }, null), { org: '', projectId: '', permissions: [] });
});

test('the code as typed, and the place of an address', () => {
  assert.equal(normalizeUserCode(' bcdf-ghjk '), 'BCDF-GHJK');
  assert.equal(normalizeUserCode('bcdf ghjk'), 'BCDFGHJK');
  assert.equal(normalizeUserCode(undefined), '');
  assert.equal(formatPlace(null), '');
  // Country names in the browser's (here the process's) language.
  const country = (code) => new Intl.DisplayNames(undefined, { type: 'region' }).of(code);
  assert.equal(formatPlace({ country: 'DE', region: 'Berlin', city: 'Berlin' }), `Berlin, ${country('DE')}`);
  assert.equal(formatPlace({ country: 'US', region: 'California', city: 'San Francisco' }), `San Francisco, California, ${country('US')}`);
  assert.equal(formatPlace({ country: 'Atlantis', region: null, city: null }), 'Atlantis');
  assert.equal(formatAddress('203.0.113.7', { country: 'FR', region: null, city: 'Paris' }), `203.0.113.7 · Paris, ${country('FR')}`);
  assert.equal(formatAddress('203.0.113.7', null), '203.0.113.7');
});
