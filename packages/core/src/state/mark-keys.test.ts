import { describe, expect, it } from 'vitest';
import { dedupeKeyOf } from '../event/validate-event.js';
import { makeEvent } from '../test-support/test-adapter.js';
import { installationMarkKey, isKeyOfInstallation, markKeyInstallation } from './mark-keys.js';

describe('installationMarkKey', () => {
  it("builds exactly the runtime's dedupe key for kind event, so both calls share one key space", () => {
    for (const event of [
      makeEvent(),
      makeEvent({ adapter: 'slack', tenant: 'E0:org/1', id: 'Ev:1 2%' }),
      makeEvent({ adapter: 'a:b', tenant: 'T{1}', id: '}{' }),
    ]) {
      expect(installationMarkKey('event', event.adapter, event.tenant, event.id)).toBe(
        dedupeKeyOf(event),
      );
    }
  });

  it('encodes adapter, tenant and id so no two identities collide', () => {
    const keys = [
      installationMarkKey('message', 'slack', 'T1:C1', 'ts'),
      installationMarkKey('message', 'slack', 'T1', 'C1:ts'),
      installationMarkKey('message', 'slack:T1', 'C1', 'ts'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('rejects a kind that is not a lower-case word and empty parts, naming the argument', () => {
    for (const kind of ['', 'Event', 'ev:ent', '1st', 'a b']) {
      expect(() => installationMarkKey(kind, 'slack', 'T1', 'x'), kind).toThrow(/kind/);
    }
    expect(() => installationMarkKey('event', '', 'T1', 'x')).toThrow(/adapter/);
    expect(() => installationMarkKey('event', 'slack', '', 'x')).toThrow(/tenant/);
    expect(() => installationMarkKey('event', 'slack', 'T1', '')).toThrow(/id/);
    expect(() => installationMarkKey('event', 'slack', 'T1', 7 as unknown as string)).toThrow(
      TypeError,
    );
  });
});

describe('markKeyInstallation', () => {
  it('gives every kind and id of one installation the same installation', () => {
    const event = installationMarkKey('event', 'slack', 'T1', 'Ev1');
    const message = installationMarkKey('message', 'slack', 'T1', 'C1/1700000000.000100');
    expect(markKeyInstallation(event)).toBe('slack:T1');
    expect(markKeyInstallation(message)).toBe('slack:T1');
    expect(markKeyInstallation(installationMarkKey('event', 'slack', 'T2', 'Ev1'))).toBe(
      'slack:T2',
    );
  });

  it('keeps an id with more colons whole and reads only the first three parts', () => {
    expect(markKeyInstallation('message:slack:T1:C1:1700000000.000100')).toBe('slack:T1');
  });

  it('returns undefined for keys not in the four-part form', () => {
    for (const key of ['plain', 'a:b', 'a:b:c', ':a:b:c', 'a::b:c', 'a:b::c', 'a:b:c:', '']) {
      expect(markKeyInstallation(key), key).toBeUndefined();
    }
  });
});

describe('isKeyOfInstallation', () => {
  it('agrees with comparing markKeyInstallation, for every key against every installation', () => {
    const keys = [
      'plain',
      'a:b',
      'a:b:c',
      ':a:b:c',
      'a::b:c',
      'a:b::c',
      'a:b:c:',
      '',
      'event:slack:T1:Ev1',
      'message:slack:T1:C1:1700000000.000100',
      'message:slack:T10:x',
      'message:slac:kT1:x',
      'event:slack:T1',
      'event:slack:T1:',
      'event:slack:T1:x:',
      'e:slack%3AT1:x:y',
    ];
    const installations = ['slack:T1', 'slack:T10', 'slac:kT1', 'b:c', 'slack%3AT1:x'];
    for (const key of keys) {
      for (const installation of installations) {
        expect(isKeyOfInstallation(key, installation), `${key} / ${installation}`).toBe(
          markKeyInstallation(key) === installation,
        );
      }
    }
  });
});
