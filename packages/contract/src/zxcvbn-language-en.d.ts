// The English dictionary's modules one by one (the package's index bundles them all, 1.7 MB).
declare module '@zxcvbn-ts/language-en/dist/commonWords.json.mjs' {
  const words: string[];
  export default words;
}
declare module '@zxcvbn-ts/language-en/dist/firstnames.json.mjs' {
  const names: string[];
  export default names;
}
declare module '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs' {
  const sequences: Record<string, string[]>;
  export default sequences;
}
declare module '@zxcvbn-ts/language-en/dist/translations.mjs' {
  import type { TranslationKeys } from '@zxcvbn-ts/core';
  const translations: TranslationKeys;
  export default translations;
}
