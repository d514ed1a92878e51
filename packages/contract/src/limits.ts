/** Shared limits and constants, the same for the API and the web app. */
export const LIMITS = {
  /** Upload cap for documents, in bytes. */
  uploadMaxBytes: 20_000_000,
  /** Counts from 1 to this minus one are suppressed in aggregate results (configurable on the server). */
  defaultSuppressionThreshold: 20,
  /** The largest change cell-key perturbation makes to a released count; 0 is off (configurable on the server). */
  defaultPerturbationMaxChange: 2,
  /**
   * Query runs one user may start per minute and per day, saved and unsaved together (configurable
   * on the server). The cohort-definition editor counts the definition live, debounced, after each
   * change: a burst of edits (ticking concepts, typing days) asks about one run every 1.5 to 3
   * seconds, which 20 a minute refused; 40 lets it through. The daily budget stays: a day of editing
   * is a few hundred runs, and the budget is what bounds the attacks the tracker defence leaves open.
   */
  defaultQueryRatePerMinute: 40,
  defaultQueryDailyBudget: 500,
  /** The most rules (and groups) one data-explorer query tree may hold, and how deep groups may nest. */
  queryMaxRules: 200,
  queryMaxDepth: 8,
  /**
   * How deeply objects and arrays may nest in any JSON body, checked before validation. A query
   * tree 8 groups deep with a structured rule value needs about 20.
   */
  jsonMaxDepth: 32,
  /** The default time limit of one query run, in milliseconds (configurable on the server). */
  defaultQueryTimeoutMs: 30_000,
  /** The largest page a list returns. */
  maxPageSize: 100,
  /** The page size when a list call gives none. */
  defaultPageSize: 10,
  /**
   * The member directory finds a colleague one can name; it is not a list of everyone to page
   * through. A search gives at least this many characters of the start of a name or an email
   * (never a part of an email's domain, which all colleagues share) ...
   */
  directorySearchMinLength: 3,
  /** ... and an answer holds at most this many people (no paging: a longer search narrows it). */
  directoryMaxResults: 20,
  /** Directory searches one user may make a minute: enough to type a name, too few to sweep. */
  directorySearchesPerMinute: 30,
  /** Lifetime of an id token issued by the embedded issuer, in seconds. */
  idTokenTtlSeconds: 600,
  /** Lifetime of a refresh token, in seconds (rotated on each use). */
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  /** Failed sign-ins allowed before back-off starts, per account and per address. */
  signInFailuresBeforeBackoff: 5,
  /** The longest back-off after failed sign-ins, in seconds. Never a permanent lock-out. */
  signInMaxBackoffSeconds: 15 * 60,
  /** How long an invitation link stays valid, in days (configurable on the server). */
  defaultInvitationTtlDays: 7,
  /** Password length bounds for local accounts. */
  passwordMinLength: 12,
  passwordMaxLength: 128,
  /**
   * The lowest zxcvbn score (0–4) a new password may have. 3 would let a word with a year and a few
   * symbols through (`Summer2024!!`, about 10^8 guesses); 4 asks for about 10^10, which a few
   * unrelated words reach.
   */
  passwordMinScore: 4,
} as const;

/** File types in words, for people (the API's refusals, the documents table); the MIME type stays beside it for the rest. */
export const FILE_TYPE_NAMES: Readonly<Record<string, string>> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'text/plain': 'plain text',
  'text/csv': 'CSV table',
  'text/tab-separated-values': 'TSV table',
  'text/markdown': 'Markdown text',
  'application/json': 'JSON',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document (.docx)',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook (.xlsx)',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentation (.pptx)',
  'application/msword': 'Word 97–2003 document (.doc)',
  'application/vnd.ms-excel': 'Excel 97–2003 workbook (.xls)',
  'application/zip': 'ZIP archive',
  'application/x-msdownload': 'Windows program (.exe)',
  'application/x-elf': 'Linux program',
};

/** A file type in words ("Word document (.docx)"), or the MIME type itself when it has no name here. */
export const fileTypeName = (mime: string): string => FILE_TYPE_NAMES[mime] ?? mime;
