/** A category as people write it: codes in capitals ("FEMALE") become "Female"; other labels are kept. */
export function categoryLabel(label: string): string {
  if (!/[A-Z]/.test(label) || label !== label.toUpperCase()) return label;
  return label.charAt(0) + label.slice(1).toLowerCase();
}
