import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export { signIn } from './sign-in';

/**
 * Waits until nothing on the page moves for a few frames in a row. The animations running at one
 * instant are not enough: antd (rc-motion) gives an opening dialog, drawer or popover its starting
 * style (transparent) a few frames before its animation exists, so a scan begun then may judge the
 * colours mid-fade: serious colour-contrast violations that come and go. A spinner counts as
 * moving too: the page is still loading.
 */
async function waitForStillness(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.evaluate(
    (timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const describe = (element: Element | null | undefined) => (element ? `${element.tagName.toLowerCase()}.${Array.from(element.classList).join('.')}` : '?');
        // rc-motion marks an element in motion with both `X` and `X-appear`, `X-enter` or `X-leave`.
        const inMotion = (element: Element, phases: string) =>
          Array.from(element.classList).some((name) => new RegExp(`-(${phases})$`).test(name) && element.classList.contains(name.replace(/-\w+$/, '')));
        // A leaving element already collapsed to nothing is gone to the eye, whatever still spins in
        // it: a button's loading icon can stay so when its collapse has no width left to animate.
        const collapsedLeaving = (element: Element | null | undefined): boolean => {
          for (let node = element; node; node = node.parentElement) {
            if (!inMotion(node, 'leave')) continue;
            const box = node.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) return true;
          }
          return false;
        };
        const moving = () => [
          ...document
            .getAnimations()
            .filter((animation) => animation.playState === 'running')
            .map((animation) => (animation.effect as KeyframeEffect | null)?.target)
            .filter((target) => !collapsedLeaving(target))
            .map(describe),
          ...Array.from(document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]'))
            .filter((element) => inMotion(element, 'appear|enter|leave') && !collapsedLeaving(element))
            .map(describe),
        ];
        let stillFrames = 0;
        const timer = setTimeout(() => reject(new Error(`Still moving after ${timeoutMs} ms: ${[...new Set(moving())].join(', ')}`)), timeoutMs);
        const check = () => {
          stillFrames = moving().length > 0 ? 0 : stillFrames + 1;
          if (stillFrames < 3) {
            requestAnimationFrame(check);
          } else {
            clearTimeout(timer);
            resolve();
          }
        };
        requestAnimationFrame(check);
      }),
    timeoutMs,
  );
}

/** The time one scan adds to a test's budget: axe takes 1–3 s on an idle 2-core machine, several times that on a busy one. */
const SCAN_BUDGET_MS = 20_000;

/**
 * The serious and critical accessibility violations axe finds on the page, once it is still. With
 * `touchTargets`, controls smaller than 24 px without room around them count too (axe's
 * `target-size`, WCAG 2.2 AA, which Lighthouse's accessibility score includes and axe leaves off
 * unless asked); antd's clear icons in search inputs (16 px) still fail it.
 */
export async function seriousViolations(page: Page, { touchTargets = false, include }: { touchTargets?: boolean; include?: string } = {}): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  // Each scan brings its own time, so a test's budget grows with the number of states it checks.
  const info = test.info();
  if (info.timeout > 0) info.setTimeout(info.timeout + SCAN_BUDGET_MS);
  await waitForStillness(page);
  const builder = new AxeBuilder({ page }).options({ rules: { 'target-size': { enabled: touchTargets } } });
  // `include`: one part of the page (a CSS selector) rather than all of it.
  const results = await (include ? builder.include(include) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact!, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/**
 * Waits until the shell shows the signed-in user and the page has been taken over by React. The
 * server renders the shell, so it shows before its links and buttons respond.
 */
/**
 * Waits until React has taken over the page the server sent. Its headings, rows and buttons are
 * on screen before that, but a click on them does nothing yet.
 */
export async function expectHydrated(page: Page): Promise<void> {
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
}

export async function expectShell(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expectHydrated(page);
  await expect(page.getByTestId('current-user')).toContainText(name);
}

/** A side-bar item (a link, or a disabled one with `aria-disabled`), in the main navigation or in `within` (the phone's menu drawer). */
export function sideBarItem(page: Page, name: string, within?: ReturnType<Page['getByRole']>) {
  return (within ?? page.getByRole('navigation', { name: 'Main' })).getByRole('link', { name, exact: true });
}
