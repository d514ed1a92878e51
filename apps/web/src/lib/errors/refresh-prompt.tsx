/** The text of the prompt under descriptions of errors after which the page should be reloaded. */
export const REFRESH_PROMPT = 'Please refresh the page.';

/** A description followed by 'Please refresh the page.' as a link that reloads the page. */
export function DescriptionWithRefresh({ description, reload = () => window.location.reload() }: { description?: string; reload?: () => void }) {
  return (
    <>
      {description ? <p style={{ margin: '0 0 8px' }}>{description}</p> : null}
      <a
        href={window.location.href}
        onClick={(event) => {
          event.preventDefault();
          reload();
        }}
      >
        {REFRESH_PROMPT}
      </a>
    </>
  );
}
