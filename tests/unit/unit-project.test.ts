/** The unit project runs without the local stack (vitest.config.ts): tests/setup/unit-env.ts refuses the network. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';

describe('the unit project', () => {
  it('refuses any connection and any listening socket, so no test here needs the stack', () => {
    // Assess
    expect(() => net.connect(8000, '127.0.0.1')).toThrow(/unit tests open no connection/);
    expect(() => net.createServer().listen(0)).toThrow(/unit tests open no listening socket/);
  });
});
