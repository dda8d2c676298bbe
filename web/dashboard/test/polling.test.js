// The polling loop under usePolling (src/polling.js): "N visitors now" and the Live page's last
// 30 minutes read get_web_realtime with it (src/realtime.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { poll } from '../src/polling.js';

/** Timers run by hand: run() fires the one pending, as setTimeout would after its delay. */
function fakeTimers() {
  const pending = new Map();
  let next = 1;
  return {
    setTimeout: (callback, ms) => { pending.set(next, { callback, ms }); return next++; },
    clearTimeout: (id) => { pending.delete(id); },
    get delays() { return [...pending.values()].map((timer) => timer.ms); },
    run() {
      const [[id, { callback }]] = pending;
      pending.delete(id);
      callback();
    },
  };
}
const settle = () => new Promise((done) => setImmediate(done));

test('poll reads now, then again after each answer or failure, never two at once', async () => {
  const timers = fakeTimers();
  const outcomes = [];
  const answers = [() => Promise.resolve(1), () => Promise.reject(new Error('down')), () => Promise.resolve(3)];
  let calls = 0;
  const stop = poll(() => answers[calls++](), 15_000, {
    onAnswer: (answer) => outcomes.push(answer),
    onError: (error) => outcomes.push(error.message),
  }, timers);
  assert.equal(calls, 1, 'the first read starts at once');
  assert.deepEqual(timers.delays, [], 'the next waits for the answer');
  await settle();
  assert.deepEqual(outcomes, [1]);
  assert.deepEqual(timers.delays, [15_000]);
  timers.run();
  await settle();
  assert.deepEqual(outcomes, [1, 'down'], 'a failure is reported, and the loop goes on');
  assert.deepEqual(timers.delays, [15_000]);
  timers.run();
  await settle();
  assert.deepEqual(outcomes, [1, 'down', 3]);
  stop();
  assert.deepEqual(timers.delays, [], 'stop clears the next read');
  assert.equal(calls, 3);
});

test('an answer that arrives after stop is dropped, and nothing is read again', async () => {
  const timers = fakeTimers();
  const outcomes = [];
  let answer;
  const stop = poll(() => new Promise((resolve) => { answer = resolve; }), 30_000, { onAnswer: (value) => outcomes.push(value) }, timers);
  stop();
  answer(7);
  await settle();
  assert.deepEqual(outcomes, []);
  assert.deepEqual(timers.delays, []);
});

test('a load that throws at once counts as a failure', async () => {
  const timers = fakeTimers();
  const errors = [];
  const stop = poll(() => { throw new Error('no'); }, 1000, { onError: (error) => errors.push(error.message) }, timers);
  await settle();
  assert.deepEqual(errors, ['no']);
  assert.deepEqual(timers.delays, [1000]);
  stop();
});
