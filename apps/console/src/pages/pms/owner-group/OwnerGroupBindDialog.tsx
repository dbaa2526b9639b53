import { Button, Modal, Spin, Transfer, type TransferProps } from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import {
  bindOwners,
  type GroupOwner,
  groupMembers,
  unbindOwner,
  ungroupedOwners,
} from "./owner-group-calls.ts";

interface Props {
  groupId: string;
  groupName: string;
  onClose: () => void;
}

type Item = GroupOwner & { key: string };

const describe = (o: GroupOwner) =>
  [o.ownerName, o.ownerCode && `(${o.ownerCode})`, o.phone].filter(Boolean).join(" ");

/**
 * The members of an owner group as a transfer list: owners in no group on the left, the group's
 * on the right. Moving right binds them at once; moving left unbinds each by its relation id. Both
 * lists are read again after every move, so what is shown is what the server holds.
 */
export function OwnerGroupBindDialog({ groupId, groupName, onClose }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const [free, setFree] = useState<GroupOwner[]>([]);
  const [members, setMembers] = useState<GroupOwner[]>([]);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [left, right] = await Promise.all([ungroupedOwners(), groupMembers(groupId)]);
      setFree(left);
      setMembers(right);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setLoading(false);
    }
  }, [groupId]);
  useEffect(() => {
    void load();
  }, [load]);

  const items = useMemo<Item[]>(
    () => [...free, ...members].map((owner) => ({ ...owner, key: owner.id })),
    [free, members],
  );
  const targetKeys = useMemo(() => members.map((m) => m.id), [members]);

  const move: TransferProps<Item>["onChange"] = async (_next, direction, moved) => {
    const ids = moved.map(String);
    setBusy(true);
    try {
      if (direction === "right") {
        await bindOwners(groupId, ids);
        message.success(t("pms.group.bound", { count: ids.length }));
      } else {
        for (const id of ids) {
          const relation = members.find((m) => m.id === id)?.relationId;
          if (relation) await unbindOwner(relation);
        }
        message.success(t("pms.group.unbound", { count: ids.length }));
      }
    } catch (error) {
      // Refusals (an owner joined another group meanwhile) were toasted by the API bridge.
      reportNetworkError(error);
    } finally {
      await load();
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t("pms.group.bindTitle", { name: groupName })}
      width={820}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="owner-group-bind-close">
          {t("crud.close")}
        </Button>
      }
      destroyOnHidden
    >
      <Spin spinning={loading || busy}>
        <Transfer<Item>
          dataSource={items}
          targetKeys={targetKeys}
          onChange={(next, direction, moved) => void move?.(next, direction, moved)}
          render={describe}
          titles={[t("pms.group.free"), t("pms.group.members")]}
          actions={[t("pms.group.join"), t("pms.group.leave")]}
          showSearch
          filterOption={(text, item) => describe(item).toLowerCase().includes(text.trim().toLowerCase())}
          disabled={busy}
          styles={{ section: { width: 340, height: 420 } }}
          locale={{ notFoundContent: t("crud.empty") }}
          data-testid="owner-group-transfer"
        />
      </Spin>
    </Modal>
  );
}
