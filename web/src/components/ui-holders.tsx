// Ant Design's message and modal holders, loaded when the first message or dialog is asked for
// (ui-host.tsx); once rendered they take the calls queued until then (lib/ui.ts).
import { useEffect } from 'react';
import { message as antMessage, Modal } from 'antd';
import { connectApis } from '@/lib/ui';

export default function UiHolders() {
  const [message, messageHolder] = antMessage.useMessage();
  const [modal, modalHolder] = Modal.useModal();
  useEffect(() => {
    connectApis({ message, modal });
    return () => connectApis(undefined);
  }, [message, modal]);
  return (
    <>
      {modalHolder}
      {messageHolder}
    </>
  );
}
