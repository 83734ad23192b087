import type {
  Attributes,
  BatchObservableResult,
  Counter,
  Histogram,
  Meter,
  MeterProvider,
  Observable,
  ObservableGauge,
} from '@opentelemetry/api';
import type { Observation, RuntimeStats } from '@rt/core';
import { AttributeCache } from './attribute-cache.js';
import { ATTR, DURATION_BUCKETS_S, METRICS, OTHER_TENANT, SCOPE_NAME } from './names.js';
import { decodePart, hottestTenants, TenantLabels } from './tenant-labels.js';

type Of<T extends Observation['type']> = Extract<Observation, { type: T }>;

/**
 * The metric instruments and how each observation updates them. Attribute sets are cached, so a
 * steady stream of deliveries allocates none. Every method may throw (a broken meter); the
 * observer contains it.
 */
export class RtMetrics {
  readonly #meter: Meter;
  readonly #tenants: TenantLabels;
  readonly #tenantCardinality: number;
  /** One cache per attribute layout, so keys need no prefix (no string built per delivery). */
  readonly #byAdapterShape = new AttributeCache();
  readonly #byOutcome = new AttributeCache();
  readonly #byRejection = new AttributeCache();
  readonly #byHandler = new AttributeCache();
  readonly #byOther = new AttributeCache();
  readonly #received: Counter;
  readonly #finished: Counter;
  readonly #rejected: Counter;
  readonly #dispatchDuration: Histogram;
  readonly #handlerDuration: Histogram;
  readonly #lockConflicts: Counter;
  readonly #leaseLosses: Counter;
  readonly #preludeErrors: Counter;
  readonly #stateErrors: Counter;
  readonly #notices: Counter;
  #gauges: readonly ObservableGauge[] | undefined;

  constructor(provider: MeterProvider, tenantCardinality: number) {
    const meter = provider.getMeter(SCOPE_NAME);
    this.#meter = meter;
    this.#tenants = new TenantLabels(tenantCardinality);
    this.#tenantCardinality = tenantCardinality;
    const seconds = { unit: 's', advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_S] } };
    this.#received = meter.createCounter(METRICS.deliveriesReceived, {
      description: 'Deliveries dispatched to the runtime, by adapter and shape.',
      unit: '{delivery}',
    });
    this.#finished = meter.createCounter(METRICS.deliveriesFinished, {
      description: 'Deliveries that reached their terminal outcome, by adapter, shape and outcome.',
      unit: '{delivery}',
    });
    this.#rejected = meter.createCounter(METRICS.admissionRejected, {
      description: 'Deliveries refused by admission, by adapter, reason and (bounded) tenant.',
      unit: '{delivery}',
    });
    this.#dispatchDuration = meter.createHistogram(METRICS.dispatchDuration, {
      description: 'Time from receipt to the terminal outcome.',
      ...seconds,
    });
    this.#handlerDuration = meter.createHistogram(METRICS.handlerDuration, {
      description: 'Handler run time, from the first handler start to the last one settled.',
      ...seconds,
    });
    this.#lockConflicts = meter.createCounter(METRICS.lockConflicts, {
      description: 'Thread Lock acquisitions that found the lock held.',
      unit: '{conflict}',
    });
    this.#leaseLosses = meter.createCounter(METRICS.leaseLosses, {
      description: 'Leases lost while a handler ran (the handler was preempted).',
      unit: '{lease}',
    });
    this.#preludeErrors = meter.createCounter(METRICS.preludeErrors, {
      description: 'Dispatch preludes that failed before acceptance (nothing was marked).',
      unit: '{delivery}',
    });
    this.#stateErrors = meter.createCounter(METRICS.stateErrors, {
      description: 'State calls outside the prelude that failed (renewal, release, acquire).',
      unit: '{error}',
    });
    this.#notices = meter.createCounter(METRICS.adapterNotices, {
      description: 'Adapter notices, by adapter and notice name.',
      unit: '{notice}',
    });
  }

  admitted(o: Of<'dispatch_admitted'>): void {
    this.#received.add(1, this.#adapterShape(o.event.adapter, o.event.shape));
  }

  rejected(o: Of<'admission_rejected'>): void {
    const tenant = this.#tenants.labelOf(o.tenant);
    this.#rejected.add(
      1,
      this.#byRejection.get(o.adapter, o.reason, tenant, () => ({
        [ATTR.adapter]: o.adapter,
        [ATTR.reason]: o.reason,
        [ATTR.tenant]: tenant,
      })),
    );
  }

  /**
   * A terminal outcome. `wasAdmitted`: an accepted delivery, already counted as received at
   * `dispatch_admitted` (any other is counted now). The dispatch duration runs from receipt; the
   * handler duration is recorded when handlers ran and finished (`handlerMs`).
   */
  finished(o: Of<'dispatch_finished'>, wasAdmitted: boolean): void {
    const { adapter, shape } = o.event;
    if (!wasAdmitted) this.#received.add(1, this.#adapterShape(adapter, shape));
    const attrs = this.#byOutcome.get(adapter, shape, o.outcome, () => ({
      [ATTR.adapter]: adapter,
      [ATTR.shape]: shape,
      [ATTR.outcome]: o.outcome,
    }));
    this.#finished.add(1, attrs);
    this.#dispatchDuration.record(Math.max(0, o.at - o.receivedAt) / 1000, attrs);
    if (o.handlerMs !== undefined) {
      const status = o.outcome === 'completed' ? 'ok' : 'error';
      this.#handlerDuration.record(
        o.handlerMs / 1000,
        this.#byHandler.get(adapter, shape, status, () => ({
          [ATTR.adapter]: adapter,
          [ATTR.shape]: shape,
          [ATTR.handlerStatus]: status,
        })),
      );
    }
  }

  lockConflict(o: Of<'lock_conflict'>): void {
    this.#lockConflicts.add(1, this.#adapterOnly(o.event.adapter));
  }

  /** The lock key starts `adapter:` (URI-encoded, `scopeKeyOf`), which names the adapter. */
  leaseLost(o: Of<'lease_lost'>): void {
    const colon = o.lockKey.indexOf(':');
    const encoded = colon < 0 ? o.lockKey : o.lockKey.slice(0, colon);
    this.#leaseLosses.add(
      1,
      this.#byOther.get('lease', encoded, '', () => ({
        [ATTR.adapter]: decodePart(encoded),
      })),
    );
  }

  preludeError(o: Of<'prelude_error'>): void {
    this.#preludeErrors.add(1, this.#adapterShape(o.event.adapter, o.event.shape));
  }

  stateError(o: Of<'state_error'>): void {
    this.#stateErrors.add(
      1,
      this.#byOther.get('state', o.operation, '', () => ({ [ATTR.operation]: o.operation })),
    );
  }

  notice(o: Of<'adapter_notice'>): void {
    this.#notices.add(
      1,
      this.#byOther.get('notice', o.adapter, o.name, () => ({
        [ATTR.adapter]: o.adapter,
        [ATTR.notice]: o.name,
      })),
    );
  }

  /**
   * Registers the observable gauges against `stats` (called once per collection, never per
   * delivery). Returns the function that unregisters them.
   */
  bindGauges(stats: () => RuntimeStats, onError: (error: unknown) => void): () => void {
    const meter = this.#meter;
    this.#gauges ??= [
      meter.createObservableGauge(METRICS.detachedInFlight, {
        description: 'Deferred deliveries holding an admission slot now.',
        unit: '{delivery}',
      }),
      meter.createObservableGauge(METRICS.detachedHighWater, {
        description: 'The most admission slots held at once since start.',
        unit: '{delivery}',
      }),
      meter.createObservableGauge(METRICS.parked, {
        description:
          'Deliveries parked (queue, debounce), waiting (concurrent) or batched (burst).',
        unit: '{delivery}',
      }),
      meter.createObservableGauge(METRICS.syncInFlight, {
        description: 'Sync deliveries inside dispatch now.',
        unit: '{delivery}',
      }),
      meter.createObservableGauge(METRICS.tenantInFlight, {
        description: 'Admission slots held by the hottest tenants; the rest summed as "other".',
        unit: '{delivery}',
      }),
    ];
    const [inFlight, highWater, parked, syncInFlight, perTenant] = this.#gauges as [
      ObservableGauge,
      ObservableGauge,
      ObservableGauge,
      ObservableGauge,
      ObservableGauge,
    ];
    const callback = (result: BatchObservableResult): void => {
      try {
        const s = stats();
        result.observe(inFlight, s.detachedInFlight);
        result.observe(highWater, s.detachedHighWater);
        result.observe(parked, s.parked);
        result.observe(syncInFlight, s.syncInFlight);
        const { top, rest } = hottestTenants(s.perTenantInFlight, this.#tenantCardinality);
        for (const t of top) {
          result.observe(perTenant, t.inFlight, {
            [ATTR.adapter]: t.adapter,
            [ATTR.tenant]: t.tenant,
          });
        }
        if (rest > 0) result.observe(perTenant, rest, { [ATTR.tenant]: OTHER_TENANT });
      } catch (error) {
        onError(error);
      }
    };
    const observables: Observable[] = [...this.#gauges];
    meter.addBatchObservableCallback(callback, observables);
    return () => meter.removeBatchObservableCallback(callback, observables);
  }

  #adapterShape(adapter: string, shape: string): Attributes {
    return this.#byAdapterShape.get(adapter, shape, '', () => ({
      [ATTR.adapter]: adapter,
      [ATTR.shape]: shape,
    }));
  }

  #adapterOnly(adapter: string): Attributes {
    return this.#byOther.get('adapter', adapter, '', () => ({ [ATTR.adapter]: adapter }));
  }
}
