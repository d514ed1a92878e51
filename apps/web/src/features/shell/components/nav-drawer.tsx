import type { ReactNode } from 'react';
import { Drawer } from 'antd';

/**
 * The side bar as a drawer over the page (narrow screens): a scrim and a close button. Loaded on
 * demand, the first time the menu is opened, so that it weighs nothing on a desktop.
 */
export default function NavDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={264}
      title="Menu"
      closable={{ 'aria-label': 'Close the menu' }}
      className="hdp-nav-drawer"
      styles={{ body: { padding: 0 } }}
    >
      {children}
    </Drawer>
  );
}
