# cuda_ref/common/card.sh -- sourced by the scripts that measure a card
# (run-all.sh, ncu-instructions.sh), from the repository's root, after they
# define die() and bin (the folder of the CUDA programs).
#
# device_named CARD: the CUDA device's description (constants --device-info)
# into $device; dies unless the device's name holds CARD (case ignored).
device_named() {
    device=$("$bin/constants" --device-info) || die "no CUDA device"
    local name
    name=$(sed -n 's/^name: //p' <<<"$device")
    shopt -s nocasematch
    [[ $name == *"$1"* ]] || die "the device is '$name', not a $1"
    shopt -u nocasematch
}
