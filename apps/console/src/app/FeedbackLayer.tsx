import { Modal, message, notification } from "antd";
import { useLayoutEffect } from "react";
import { publishFeedback } from "./feedback.ts";

/** antd's feedback hooks and their holders; publishes the APIs for `feedback()` / `useFeedback()`. */
export default function FeedbackLayer() {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useLayoutEffect(() => {
    publishFeedback({ message: messageApi, notification: notificationApi, modal: modalApi });
    return () => publishFeedback(null);
  }, [messageApi, notificationApi, modalApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
      {modalHolder}
    </>
  );
}
