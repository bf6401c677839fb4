import { PublicUrl } from './public-url';
import { readConfig } from './tally-config';

const production = { TALLY_PROFILE: 'production', TALLY_REGIONS: 'eu', EVENTSTORE_URL: 'esdb://es:2113?tls=false', MONGO_URL: 'mongodb://mongo:27017/' };

describe('the public URL (TALLY_PUBLIC_URL)', () => {
  it('is, unless set, the address the embedded API listens on', () => {
    expect(readConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(readConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('takes an absolute http(s) URL, a path kept as a prefix, written as the URL standard writes it, without a trailing slash', () => {
    expect(readConfig({ TALLY_PUBLIC_URL: 'https://billing.example.com' }).publicUrl).toBe('https://billing.example.com');
    expect(readConfig({ TALLY_PUBLIC_URL: 'https://Billing.Example.com:443/tally/' }).publicUrl).toBe('https://billing.example.com/tally');
    expect(readConfig({ TALLY_PUBLIC_URL: 'http://127.0.0.1:8080/' }).publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('refuses to start on anything else, naming the variable and the value', () => {
    const refused = ['billing.example.com', '/tally', 'ftp://billing.example.com', 'https://user:pass@billing.example.com', 'https://billing.example.com/?x=1', 'https://billing.example.com/?', 'https://billing.example.com/#top', ''];
    for (const value of refused) expect(() => readConfig({ TALLY_PUBLIC_URL: value })).toThrow(`TALLY_PUBLIC_URL is the absolute http(s) address customers reach Tally at, without credentials, query or fragment (such as https://billing.example.com), not ${JSON.stringify(value)}`);
  });

  it('must be set in production, where neither the API nor the worker knows the address customers use', () => {
    expect(() => readConfig(production)).toThrow('The production profile needs TALLY_PUBLIC_URL');
    expect(readConfig({ ...production, TALLY_PUBLIC_URL: 'https://billing.example.com' }).publicUrl).toBe('https://billing.example.com');
  });

  it('refuses a PORT that is no TCP port', () => {
    for (const value of ['http', '-1', '65536', '3000.5', '']) expect(() => readConfig({ PORT: value })).toThrow(`PORT is a TCP port from 0 to 65535, not ${value}`);
    expect(readConfig({ PORT: '0' }).port).toBe(0);
  });

  it('starts every URL handed out', () => {
    expect(new PublicUrl('https://billing.example.com/tally').of('/invoice-pdfs/inv_1?signature=x')).toBe('https://billing.example.com/tally/invoice-pdfs/inv_1?signature=x');
  });
});
