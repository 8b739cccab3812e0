import type { BenchmarkId } from './catalogue.js';
import type { Conflict } from './report.js';

/**
 * Pairs of controls of the two benchmarks that ask contradictory settings of the same thing, so
 * that a base made clean for one fails the other: each side's report names the other control.
 * `note` says what each asks, in the order [cis, stig].
 */
const PAIRS: readonly { cis: string; stig: string; note: string }[] = [
  {
    cis: '4.3',
    stig: 'V-222987',
    note: 'CIS asks conf/ owned by tomcat_admin; the STIG asks root',
  },
  {
    cis: '4.4',
    stig: 'V-222988',
    note: 'CIS asks logs/ owned by tomcat_admin:tomcat (o-rwx); the STIG asks the tomcat service account as owner',
  },
  {
    cis: '4.5',
    stig: 'V-222989',
    note: 'CIS asks temp/ owned by tomcat_admin:tomcat; the STIG asks the tomcat service account as owner',
  },
  {
    cis: '4.12',
    stig: 'V-222945',
    note: 'CIS asks server.xml owned by tomcat_admin with mode 600 or stricter (group without read); the STIG asks 640 for every file of conf/ (the group reads them)',
  },
  {
    cis: '4.13',
    stig: 'V-222945',
    note: 'CIS asks tomcat-users.xml mode 600 or stricter; the STIG asks 640 for every file of conf/',
  },
  {
    cis: '4.14',
    stig: 'V-222945',
    note: 'CIS asks web.xml mode 400 or stricter; the STIG asks 640 for every file of conf/',
  },
  {
    cis: '6.4',
    stig: 'V-222935',
    note: 'CIS asks secure="true" only on connectors with SSLEnabled="true"; the STIG asks secure="true" and scheme="https" on every connector, also a plain one behind a TLS proxy',
  },
  {
    cis: '6.3',
    stig: 'V-222935',
    note: 'CIS asks scheme="https" only where the connector itself does TLS; the STIG asks scheme="https" on every connector behind a TLS proxy',
  },
];

/** The controls of the other benchmark that contradict `control` of `benchmark`. */
export function conflictsOf(benchmark: BenchmarkId, control: string): Conflict[] {
  if (benchmark === 'cis-tomcat-10.1')
    return PAIRS.filter((p) => p.cis === control).map((p) => ({
      benchmark: 'stig-tomcat',
      control: p.stig,
      note: p.note,
    }));
  return PAIRS.filter((p) => p.stig === control).map((p) => ({
    benchmark: 'cis-tomcat-10.1',
    control: p.cis,
    note: p.note,
  }));
}
