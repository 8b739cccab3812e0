/**
 * The structure of a checklist as DISA STIG Viewer 2.14 exports it, described from a public one:
 * mitre/heimdall2, libs/hdf-converters/sample_jsons/checklist_mapper/sample_input_report/RHEL8V1R3.ckl
 * (its first line says `DISA STIG Viewer :: 2.14`), which MITRE's checklist converter tests read.
 * Only the shape is kept here (element names in order, the STIG_INFO and STIG_DATA names in
 * order, the status words), not the checklist's text.
 */

/** CHECKLIST's children, in order. */
export const CHECKLIST = ['ASSET', 'STIGS'] as const;

/** ASSET's children, in order. */
export const ASSET = [
  'ROLE',
  'ASSET_TYPE',
  'HOST_NAME',
  'HOST_IP',
  'HOST_MAC',
  'HOST_FQDN',
  'TARGET_COMMENT',
  'TECH_AREA',
  'TARGET_KEY',
  'WEB_OR_DATABASE',
  'WEB_DB_SITE',
  'WEB_DB_INSTANCE',
] as const;

/** STIGS holds iSTIG elements; an iSTIG holds one STIG_INFO, then VULN elements. */
export const STIGS = 'iSTIG';
export const ISTIG = ['STIG_INFO', 'VULN'] as const;

/** STIG_INFO: SI_DATA elements, each SID_NAME then (when it has a value) SID_DATA; the names in order. */
export const SI_DATA_NAMES = [
  'version',
  'classification',
  'customname',
  'stigid',
  'description',
  'filename',
  'releaseinfo',
  'title',
  'uuid',
  'notice',
  'source',
] as const;

/** A VULN: STIG_DATA elements (VULN_ATTRIBUTE, ATTRIBUTE_DATA), then these, in order. */
export const VULN_TAIL = [
  'STATUS',
  'FINDING_DETAILS',
  'COMMENTS',
  'SEVERITY_OVERRIDE',
  'SEVERITY_JUSTIFICATION',
] as const;

/** The VULN_ATTRIBUTE names in order; CCI_REF closes the list, once per CCI. */
export const STIG_DATA_NAMES = [
  'Vuln_Num',
  'Severity',
  'Group_Title',
  'Rule_ID',
  'Rule_Ver',
  'Rule_Title',
  'Vuln_Discuss',
  'IA_Controls',
  'Check_Content',
  'Fix_Text',
  'False_Positives',
  'False_Negatives',
  'Documentable',
  'Mitigations',
  'Potential_Impact',
  'Third_Party_Tools',
  'Mitigation_Control',
  'Responsibility',
  'Security_Override_Guidance',
  'Check_Content_Ref',
  'Weight',
  'Class',
  'STIGRef',
  'TargetKey',
  'STIG_UUID',
  'LEGACY_ID',
  'LEGACY_ID',
] as const;
export const REPEATED_LAST = 'CCI_REF';

/** STATUS: STIG Viewer's four words. */
export const STATUSES = ['NotAFinding', 'Open', 'Not_Reviewed', 'Not_Applicable'] as const;

/** Severity: DISA's three words. */
export const SEVERITIES = ['high', 'medium', 'low'] as const;
