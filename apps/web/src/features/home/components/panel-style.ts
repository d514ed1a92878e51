/** The white panels of the home page. */
export const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 20, minWidth: 0 } as const;
export const PANEL_TITLE = { fontSize: 18, fontWeight: 600, margin: '0 0 12px' } as const;
