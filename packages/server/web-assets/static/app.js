// Copy buttons: <button data-copy="id-of-element">. No inline script anywhere (the CSP forbids it).
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  const text = source.textContent.trim();
  const status = document.getElementById(`${button.getAttribute('data-copy')}-status`);
  const done = (message) => {
    if (status) status.textContent = message;
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(
      () => done('Copied to the clipboard.'),
      () => done('Copy failed: select the text and copy it.'),
    );
  } else {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      document.execCommand('copy');
      done('Copied to the clipboard.');
    } catch {
      done('Selected: press Ctrl+C (or Cmd+C) to copy.');
    }
  }
});
